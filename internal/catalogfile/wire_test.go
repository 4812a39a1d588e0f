package catalogfile

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestReadToolsWireRecords reads tools given as their wire records, alone
// or beside catalog lines, and a toolset's wire record.
func TestReadToolsWireRecords(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string // names
		wantAlias   string   // of the first tool
		wantTerms   []string // of the first tool
	}{
		{
			name: "tool records",
			input: `{"name": "tickets.close_ticket", "description": "Close a solved ticket", "payload": {"type": "object", "properties": {"id": {"type": "string"}}}, "contract": {"search_terms": ["resolve"]}}
{"name": "tickets.get_ticket", "description": "Get a ticket", "tags": ["read"], "payload": {"type": "object"}, "result": {"type": "object"}}
`,
			want: []string{"tickets.close_ticket", "tickets.get_ticket"}, wantAlias: "tickets_close_ticket", wantTerms: []string{"resolve"},
		},
		{
			name: "records beside catalog lines",
			input: `{"name": "weather.forecast", "description": "Forecast", "parameters": {"type": "object"}}
{"name": "tickets.get_ticket", "description": "Get a ticket", "payload": {"type": "object"}}
`,
			want: []string{"weather.forecast", "tickets.get_ticket"},
		},
		{
			name:  "toolset record on one line",
			input: `{"name": "tickets", "description": "Tickets", "tools": [{"name": "tickets.get_ticket", "description": "Get a ticket", "payload": {"type": "object"}}]}`,
			want:  []string{"tickets.get_ticket"}, wantAlias: "tickets_get_ticket",
		},
		{
			name:  "toolset record over several lines",
			input: "{\n  \"name\": \"tickets\",\n  \"tools\": [\n    {\"name\": \"tickets.get_ticket\", \"description\": \"Get\", \"payload\": {\"type\": \"object\"}},\n    {\"name\": \"tickets.close_ticket\", \"description\": \"Close\", \"payload\": {\"type\": \"object\"}}\n  ]\n}\n",
			want:  []string{"tickets.get_ticket", "tickets.close_ticket"}, wantAlias: "tickets_get_ticket",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := ReadTools(strings.NewReader(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range docs {
				got = append(got, d.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("names = %q, want %q", got, tt.want)
			}
			if docs[0].Alias != tt.wantAlias || !slices.Equal(docs[0].SearchTerms, tt.wantTerms) {
				t.Errorf("first tool alias %q, terms %q; want %q, %q", docs[0].Alias, docs[0].SearchTerms, tt.wantAlias, tt.wantTerms)
			}
		})
	}
}

// TestReadToolsWireRecordErrors refuses malformed wire records with the
// line and the field at fault.
func TestReadToolsWireRecordErrors(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"parameters in a record", `{"name": "a.b", "payload": {"type": "object"}, "parameters": {}}`,
			`line 1: tool wire record (a line with "payload", "result", "tags" or "contract"): decode tool: unknown field "parameters"`},
		{"payload in another case", `{"name": "a.b", "tags": [], "Payload": {}}`, `unknown field "Payload" at the top level: the field is "payload"`},
		{"name not an identifier", `{"name": "close_ticket", "payload": {"type": "object"}}`, `line 1: tool wire record: discovery: entry:`},
		{"missing payload", `{"name": "a.b", "tags": ["x"]}`, `line 1: tool wire record: discovery: entry:`},
		{"missing name", `{"payload": {"type": "object"}}`, `line 1: tool wire record: missing or empty "name"`},
		{"record repeats a line", `{"name": "a.b"}` + "\n" + `{"name": "a.b", "payload": {"type": "object"}}`, `line 2: name "a.b" repeats the tool at line 1`},
		{"unknown field in a contract", `{"name": "a.b", "payload": {"type": "object"}, "contract": {"terms": []}}`, `decode contract: unknown field "terms"`},
		{"toolset record among lines", `{"name": "a.b", "payload": {"type": "object"}}` + "\n" + `{"name": "t", "tools": []}`,
			`line 2: an object with "tools" (a toolset's wire record or an MCP tools/list result) must be the whole file`},
		{"toolset record without tools", `{"name": "t", "tools": []}`, `toolset wire record "t": no tools`},
		{"toolset record with a catalog line", `{"name": "t", "tools": [{"name": "t.a", "parameters": {}}]}`, `toolset wire record: decode toolset: decode tool: unknown field "parameters"`},
		{"toolset record repeats a tool", `{"name": "t", "tools": [{"name": "t.a", "payload": {"type": "object"}}, {"name": "t.a", "payload": {"type": "object"}}]}`,
			`toolset "t": tools[1]: name "t.a" repeats the tool at tools[0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadTools(strings.NewReader(tt.input))
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want ErrMalformed mentioning %q", err, tt.want)
			}
		})
	}
}
