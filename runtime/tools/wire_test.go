package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWireRecordsDecodeStrictly(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"unknown toolset field", `{"name":"records","tools":[],"owner":"x"}`, `decode toolset: unknown field "owner"`},
		{"case mismatch", `{"Name":"records","tools":[]}`, `decode toolset: unknown field "Name"`},
		{"duplicate field", `{"name":"a","name":"b","tools":[]}`, `duplicate object key "name"`},
		{"unknown tool field", `{"name":"records","tools":[{"name":"records.a","payload":{},"schema":{}}]}`, `decode tool: unknown field "schema"`},
		{"unknown contract field", `{"name":"records.a","payload":{},"contract":{"labels":{}}}`, `decode contract: unknown field "labels"`},
		{"unknown field meta field", `{"name":"records.a","payload":{},"contract":{"fields":[{"path":"/a","secret":true}]}}`, `decode field: unknown field "secret"`},
		{"unknown confirmation field", `{"name":"records.a","payload":{},"contract":{"confirmation":{"template":"x","body":"y"}}}`, `decode confirmation: unknown field "body"`},
		{"not an object", `[1]`, "cannot unmarshal array"},
		{"wrong type", `{"name":5,"tools":[]}`, "cannot unmarshal number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if strings.HasPrefix(tc.in, `{"name":"records.a"`) {
				var tool ToolSchema
				err = json.Unmarshal([]byte(tc.in), &tool)
			} else {
				var ts ToolsetSchema
				err = json.Unmarshal([]byte(tc.in), &ts)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal(%s) error = %v, want it to contain %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestWireRecordsRoundTrip(t *testing.T) {
	want := ToolsetSchema{Name: "records", Title: "Records", Description: "d", Tags: []string{"a"}, Version: "1.0.0", Tools: []ToolSchema{lookupSchema(), searchSchema()}}
	want.Tools[0].Payload = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)
	raw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got ToolsetSchema
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
}
