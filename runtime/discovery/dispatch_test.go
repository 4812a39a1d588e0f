package discovery

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestParseDispatch(t *testing.T) {
	call := func(args string) model.ToolCall {
		return model.ToolCall{ID: "c1", Name: DispatcherName, Arguments: json.RawMessage(args)}
	}
	cases := []struct {
		name string
		in   model.ToolCall
		want model.ToolCall
		err  bool
	}{
		{"object", call(`{"name":"records_lookup","arguments":{"id":"r1"}}`),
			model.ToolCall{ID: "c1", Name: "records_lookup", Arguments: json.RawMessage(`{"id":"r1"}`)}, false},
		{"order", call(`{"arguments":{},"name":"x"}`), model.ToolCall{ID: "c1", Name: "x", Arguments: json.RawMessage(`{}`)}, false},
		{"not an object", call(`{"name":"x","arguments":[1]}`), model.ToolCall{ID: "c1", Name: "x", MalformedArguments: `[1]`}, false},
		{"string", call(`{"name":"x","arguments":"{\"id\":1}"}`), model.ToolCall{ID: "c1", Name: "x", MalformedArguments: `"{\"id\":1}"`}, false},
		{"other tool", model.ToolCall{ID: "c1", Name: "x", Arguments: json.RawMessage(`{}`)}, model.ToolCall{}, true},
		{"malformed", model.ToolCall{ID: "c1", Name: DispatcherName, MalformedArguments: "{"}, model.ToolCall{}, true},
		{"no name", call(`{"arguments":{}}`), model.ToolCall{}, true},
		{"empty name", call(`{"name":"","arguments":{}}`), model.ToolCall{}, true},
		{"no arguments", call(`{"name":"x"}`), model.ToolCall{}, true},
		{"null arguments", call(`{"name":"x","arguments":null}`), model.ToolCall{}, true},
		{"unknown key", call(`{"name":"x","arguments":{},"more":1}`), model.ToolCall{}, true},
		{"duplicate key", call(`{"name":"x","name":"y","arguments":{}}`), model.ToolCall{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDispatch(tc.in)
			if tc.err {
				if !errors.Is(err, ErrInvalidDispatch) {
					t.Fatalf("err = %v, want ErrInvalidDispatch", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDispatchArgumentsRoundTrip checks that ParseDispatch reads back what
// DispatchArguments writes, malformed arguments included.
func TestDispatchArgumentsRoundTrip(t *testing.T) {
	for _, c := range []model.ToolCall{
		{ID: "a", Name: "records_lookup", Arguments: json.RawMessage(`{"id":"r1"}`)},
		{ID: "b", Name: "x\"y", Arguments: json.RawMessage(`{}`)},
		{ID: "c", Name: "x", MalformedArguments: `{"id":`},
	} {
		args := DispatchArguments(c)
		got, err := ParseDispatch(model.ToolCall{ID: c.ID, Name: DispatcherName, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("ParseDispatch(%s): %v", args, err)
		}
		if c.MalformedArguments != "" {
			// The malformed text travels as a JSON string.
			want, _ := json.Marshal(c.MalformedArguments)
			c.MalformedArguments = string(want)
		}
		if diff := cmp.Diff(c, got); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", args, diff)
		}
	}
}

func TestDispatch(t *testing.T) {
	lookup := model.ToolSnapshot{Name: "records_lookup", Description: "Look up",
		Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)}
	catalog := []model.ToolSnapshot{lookup}
	call := func(name, args string) model.ToolCall {
		return model.ToolCall{ID: "c", Name: name, Arguments: json.RawMessage(args)}
	}
	if s, err := Dispatch(call("records_lookup", `{"id":"r1"}`), catalog); err != nil || s.Name != lookup.Name {
		t.Fatalf("Dispatch = %v, %v", s.Name, err)
	}
	if _, err := Dispatch(call("records_lookup", `{"id":1}`), catalog); !errors.Is(err, ErrInvalidArguments) {
		t.Errorf("invalid arguments: err = %v, want ErrInvalidArguments", err)
	} else if r := ErrorResult(call("records_lookup", `{}`), err); !r.IsError {
		t.Errorf("ErrorResult is not an error result: %+v", r)
	}
	for _, name := range []string{"admin_wipe", ToolName, DispatcherName} {
		if _, err := Dispatch(call(name, `{}`), catalog); !errors.Is(err, ErrNotInCatalog) {
			t.Errorf("%s: err = %v, want ErrNotInCatalog", name, err)
		}
	}
}

// FuzzParseDispatch: whatever the model sends, ParseDispatch either fails
// with ErrInvalidDispatch or returns a call that DispatchArguments renders
// back to arguments ParseDispatch reads as the same call.
func FuzzParseDispatch(f *testing.F) {
	f.Add(`{"name":"records_lookup","arguments":{"id":"r1"}}`)
	f.Add(`{"name":"x","arguments":[1]}`)
	f.Add(`{"name":"x","arguments":"s"}`)
	f.Add(`{"name":"","arguments":{}}`)
	f.Fuzz(func(t *testing.T, args string) {
		if !json.Valid([]byte(args)) {
			return
		}
		var compact json.RawMessage
		if err := json.Unmarshal([]byte(args), &compact); err != nil {
			return
		}
		got, err := ParseDispatch(model.ToolCall{ID: "c", Name: DispatcherName, Arguments: compact})
		if err != nil {
			if !errors.Is(err, ErrInvalidDispatch) {
				t.Fatalf("err %v does not match ErrInvalidDispatch", err)
			}
			return
		}
		if got.Name == "" || (len(got.Arguments) == 0) == (got.MalformedArguments == "") {
			t.Fatalf("ParseDispatch(%s) = %+v", args, got)
		}
		if len(got.Arguments) == 0 {
			return // malformed arguments come back as a JSON string, by design
		}
		again, err := ParseDispatch(model.ToolCall{ID: "c", Name: DispatcherName, Arguments: json.RawMessage(DispatchArguments(got))})
		if err != nil {
			t.Fatalf("ParseDispatch of DispatchArguments(%+v): %v", got, err)
		}
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}
