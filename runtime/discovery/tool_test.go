package discovery

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/google/go-cmp/cmp"
)

func TestTool(t *testing.T) {
	plain := Tool("")
	if plain.Name != ToolName || plain.Kind != model.ToolDiscovery || plain.Strict {
		t.Errorf("Tool = %+v", plain)
	}
	if !strings.Contains(plain.Description, "Search for more tools") {
		t.Errorf("description %q does not explain discovery", plain.Description)
	}
	withApp := Tool("Records tools are deferred.")
	if want := plain.Description + "\n\nRecords tools are deferred."; withApp.Description != want {
		t.Errorf("description = %q, want %q", withApp.Description, want)
	}
	if err := CheckParameters(plain.Parameters); err != nil {
		t.Errorf("discovery tool parameters: %v", err)
	}
	if string(Tool("x").Parameters) != string(Tool("y").Parameters) {
		t.Errorf("parameters differ between calls")
	}
}

func TestReservedNames(t *testing.T) {
	got := ReservedNames()
	if got[0] != ToolName {
		t.Errorf("ReservedNames()[0] = %q, want %q", got[0], ToolName)
	}
	for _, n := range got {
		if !IsReserved(n) {
			t.Errorf("IsReserved(%q) = false", n)
		}
		if err := ValidateName(n); err != nil {
			t.Errorf("reserved name %q is not portable: %v", n, err)
		}
	}
	got[0] = "changed"
	if !slices.Contains(ReservedNames(), ToolName) {
		t.Errorf("ReservedNames returned shared storage")
	}
	if IsReserved("records_lookup") {
		t.Errorf("IsReserved(records_lookup) = true")
	}
}

func TestParseCall(t *testing.T) {
	call := func(args string) model.ToolCall {
		return model.ToolCall{ID: "c1", Name: ToolName, Arguments: json.RawMessage(args)}
	}
	cases := []struct {
		name string
		call model.ToolCall
		want model.DiscoveryCall
		err  string
	}{
		{"query", call(`{"query":"send email"}`), model.DiscoveryCall{ID: "c1", Query: "send email"}, ""},
		{"names", call(`{"names":["a","b"]}`), model.DiscoveryCall{ID: "c1", Names: []string{"a", "b"}}, ""},
		{"both", call(`{"names":["a"],"query":"q"}`), model.DiscoveryCall{ID: "c1", Names: []string{"a"}, Query: "q"}, ""},
		{"other tool", model.ToolCall{ID: "c1", Name: "x", Arguments: json.RawMessage(`{}`)}, model.DiscoveryCall{}, `calls "x"`},
		{"no id", model.ToolCall{Name: ToolName, Arguments: json.RawMessage(`{"query":"q"}`)}, model.DiscoveryCall{}, "no call id"},
		{"malformed", model.ToolCall{ID: "c1", Name: ToolName, MalformedArguments: "{"}, model.DiscoveryCall{}, "not valid JSON"},
		{"empty", call(`{}`), model.DiscoveryCall{}, "neither"},
		{"empty query", call(`{"query":""}`), model.DiscoveryCall{}, "neither"},
		{"null", call(`null`), model.DiscoveryCall{}, "neither"},
		{"unknown field", call(`{"query":"q","limit":3}`), model.DiscoveryCall{}, "unknown field"},
		{"duplicate key", call(`{"query":"a","query":"b"}`), model.DiscoveryCall{}, "duplicate"},
		{"key in another case", call(`{"query":"a","Query":"b"}`), model.DiscoveryCall{}, `unknown field "Query"`},
		{"names in another case", call(`{"Names":["a.b"]}`), model.DiscoveryCall{}, `the field is "names"`},
		{"empty name", call(`{"names":["a",""]}`), model.DiscoveryCall{}, "names[1] is empty"},
		{"names not strings", call(`{"names":[1]}`), model.DiscoveryCall{}, "cannot unmarshal"},
		{"array", call(`["q"]`), model.DiscoveryCall{}, "cannot unmarshal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseCall(tc.call)
			if tc.err != "" {
				if !errors.Is(err, ErrInvalidDiscoveryCall) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseCall = %v, want an error containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCall: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseCall (-want +got):\n%s", diff)
			}
			if err := model.AssistantMessage(model.DiscoveryCallPart(got)).Validate(); err != nil {
				t.Errorf("parsed call is not a valid discovery call: %v", err)
			}
		})
	}
}

func FuzzParseCall(f *testing.F) {
	for _, s := range []string{`{"query":"q"}`, `{"names":["a"]}`, `{}`, `null`, `{"names":[""]}`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		call, err := ParseCall(model.ToolCall{ID: "c", Name: ToolName, Arguments: json.RawMessage(args)})
		if err != nil {
			return
		}
		if err := model.AssistantMessage(model.DiscoveryCallPart(call)).Validate(); err != nil {
			t.Fatalf("ParseCall(%q) accepted an invalid call: %v", args, err)
		}
	})
}
