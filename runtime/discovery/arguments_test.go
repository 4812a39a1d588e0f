package discovery

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestCheckArguments(t *testing.T) {
	s := snap("lookup")
	s.Parameters = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["id"],"additionalProperties":false}`)
	call := func(args string) model.ToolCall {
		return model.ToolCall{ID: "c1", Name: "lookup", Arguments: json.RawMessage(args)}
	}
	cases := []struct {
		name string
		call model.ToolCall
		err  string
	}{
		{"valid", call(`{"id":"r1"}`), ""},
		{"valid with n", call(`{"id":"r1","n":2}`), ""},
		{"missing required", call(`{}`), "missing property 'id'"},
		{"wrong type", call(`{"id":1}`), "at /id"},
		{"below minimum", call(`{"id":"a","n":0}`), "at /n"},
		{"unknown property", call(`{"id":"a","x":1}`), "additional"},
		{"duplicate key", call(`{"id":"a","id":"b"}`), "duplicate"},
		{"malformed", model.ToolCall{ID: "c1", Name: "lookup", MalformedArguments: `{"id":`}, "not valid JSON"},
		{"other tool", model.ToolCall{ID: "c1", Name: "other", Arguments: json.RawMessage(`{}`)}, `names "other"`},
	}
	var checker ArgumentChecker
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, check := range []func(model.ToolSnapshot, model.ToolCall) error{CheckArguments, checker.Check} {
				err := check(s, tc.call)
				if tc.err == "" {
					if err != nil {
						t.Fatalf("Check: %v", err)
					}
					continue
				}
				var aerr *ArgumentError
				if !errors.As(err, &aerr) || !errors.Is(err, ErrInvalidArguments) || aerr.CallID != "c1" {
					t.Fatalf("Check = %v, want an *ArgumentError", err)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Check = %v, want it to mention %q", err, tc.err)
				}
				res := ErrorResult(tc.call, err)
				if !res.IsError || res.CallID != "c1" || res.Name != tc.call.Name || !strings.Contains(res.Content, "not run") {
					t.Fatalf("ErrorResult = %+v", res)
				}
			}
		})
	}
	var verr *tools.ValidationError
	if err := CheckArguments(s, call(`{}`)); !errors.As(err, &verr) || !errors.Is(err, tools.ErrPayloadInvalid) {
		t.Errorf("a schema violation does not unwrap to *tools.ValidationError: %v", err)
	}
}

func TestArgumentCheckerConcurrent(t *testing.T) {
	var checker ArgumentChecker
	snaps := []model.ToolSnapshot{snap("a"), strictSnap("b")}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			s := snaps[i%2]
			if err := checker.Check(s, model.ToolCall{ID: "c", Name: s.Name, Arguments: json.RawMessage(`{"id":"x"}`)}); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
	wg.Wait()
	if len(checker.schemas) != 2 {
		t.Errorf("checker compiled %d schemas, want 2", len(checker.schemas))
	}
}

func TestErrorResultOtherError(t *testing.T) {
	call := model.ToolCall{ID: "c", Name: "t", Arguments: json.RawMessage(`{}`)}
	res := ErrorResult(call, errors.New("tool t is not available"))
	if res.Content != "tool t is not available" || !res.IsError {
		t.Errorf("ErrorResult = %+v", res)
	}
}
