package catalogfile

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

func TestReadTools(t *testing.T) {
	tests := []struct {
		name      string
		input     string
		want      []string
		wantTitle string
		params    string
	}{
		{
			name: "JSON lines",
			input: `{"name": "math.factorial", "description": "Factorial of a number.", "parameters": {"type": "object"}, "source": "x"}

{"name": "add", "title": "Add", "description": "Add numbers.", "parameters": null}
`,
			want:      []string{"math.factorial", "add"},
			wantTitle: "",
			params:    `{"type": "object"}`,
		},
		{
			name: "MCP tools/list result",
			input: `{
  "tools": [
    {"name": "get_weather", "title": "Weather", "description": "Get the weather.",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
     "annotations": {"readOnlyHint": true}},
    {"name": "send_email", "description": "Send an email.", "inputSchema": {"type": "object"}}
  ],
  "nextCursor": "abc"
}`,
			want:      []string{"get_weather", "send_email"},
			wantTitle: "Weather",
			params:    `{"type": "object", "properties": {"city": {"type": "string"}}}`,
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
			if docs[0].Title != tt.wantTitle || string(docs[0].Parameters) != tt.params {
				t.Errorf("first tool = %+v", docs[0])
			}
		})
	}
}

func TestReadToolsErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string // in the error text
	}{
		{"empty file", "", "no tools"},
		{"malformed line", `{"name": "a"}` + "\n" + `{"name": "b",`, "line 2"},
		{"not an object", `["a"]`, "line 1"},
		{"unknown field", `{"name": "a", "inputSchema": {}}`, `unknown field "inputSchema"`},
		{"name in another case", `{"name": "a", "Name": "b"}`, `unknown field "Name" at the top level: the field is "name"`},
		{"MCP name in another case", `{"tools": [{"name": "a", "NAME": "b"}]}`, `unknown field "NAME"`},
		{"missing name", `{"description": "x"}`, `line 1: missing "name"`},
		{"empty name", `{"name": ""}`, `line 1: empty "name"`},
		{"repeated name", `{"name": "a"}` + "\n\n" + `{"name": "a"}`, `line 3: name "a" repeats the tool at line 1`},
		{"parameters not a schema", `{"name": "a", "parameters": [1]}`, "line 1"},
		{"trailing data", `{"name": "a"} {"name": "b"}`, "line 1: data after the top-level value"},
		{"MCP tools null", `{"tools": null}`, `"tools" is null`},
		{"MCP unknown tool field", `{"tools": [{"name": "a", "parameters": {}}]}`, `unknown field "parameters"`},
		{"MCP missing name", `{"tools": [{"name": "a"}, {"description": "x"}]}`, `tools[1]: missing "name"`},
		{"MCP repeated name", `{"tools": [{"name": "a"}, {"name": "a"}]}`, `tools[1]: name "a" repeats the tool at tools[0]`},
		{"MCP bad schema", `{"tools": [{"name": "a", "inputSchema": "object"}]}`, "tools[0]"},
		{"MCP syntax error on its line", "{\n  \"tools\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\",}\n  ]\n}\n",
			"line 4: invalid JSON: invalid character '}'"},
		{"MCP type error on its line", "{\n  \"tools\": [\n    {\"name\": \"a\", \"description\": 3}\n  ]\n}\n",
			"line 3: json: cannot unmarshal number"},
		{"MCP cut short", "{\n  \"tools\": [\n    {\"name\": \"a\"", "line 3: invalid JSON: unexpected end of JSON input"},
		{"JSON line over two lines", "{\"name\": \"a\",\n \"description\": \"x\"}\n",
			"line 1: a JSON value over several lines must be an MCP tools/list result"},
		{"unfinished first line", "{\"name\": \"a\"\n{\"name\": \"b\"}\n", "JSON document over several lines: line 2"},
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

func TestReadQueries(t *testing.T) {
	known := func(name string) bool { return name == "a" || name == "b" }
	input := `{"query": "first", "gold": ["a"], "id": "q1"}
{"query": "second", "gold": ["a", "b"]}
`
	got, err := ReadQueries(strings.NewReader(input), known)
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{{Text: "first", Gold: []string{"a"}, ID: "q1"}, {Text: "second", Gold: []string{"a", "b"}}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i].Text != want[i].Text || got[i].ID != want[i].ID || !slices.Equal(got[i].Gold, want[i].Gold) {
			t.Errorf("query %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	errs := []struct{ name, input, want string }{
		{"empty", "\n", "no queries"},
		{"missing query", `{"gold": ["a"]}`, `line 1: missing "query"`},
		{"missing gold", `{"query": "x"}`, `line 1: missing or empty "gold"`},
		{"empty gold", `{"query": "x", "gold": []}`, `missing or empty "gold"`},
		{"unknown gold", `{"query": "x", "gold": ["a"]}` + "\n" + `{"query": "y", "gold": ["c"]}`, `line 2: gold tool "c" is not in the catalog`},
		{"repeated gold", `{"query": "x", "gold": ["a", "a"]}`, `gold tool "a" listed twice`},
		{"unknown field", `{"query": "x", "gold": ["a"], "answer": 1}`, `unknown field "answer"`},
		{"query in another case", `{"query": "x", "Query": "y", "gold": ["a"]}`, `unknown field "Query"`},
		{"gold not names", `{"query": "x", "gold": "a"}`, "line 1"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadQueries(strings.NewReader(tt.input), known)
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want ErrMalformed mentioning %q", err, tt.want)
			}
		})
	}
}

func FuzzReadTools(f *testing.F) {
	f.Add([]byte(`{"name": "a", "description": "x", "parameters": {"type": "object"}}`))
	f.Add([]byte(`{"tools": [{"name": "a", "inputSchema": {"properties": {"b": {}}}}]}`))
	f.Add([]byte("{\"name\": \"a\"}\n{\"name\": \"a\"}"))
	f.Add([]byte(`{"name": "t.a", "payload": {"type": "object"}, "contract": {"search_terms": ["x"]}}`))
	f.Add([]byte(`{"name": "t", "tools": [{"name": "t.a", "payload": {"type": "object"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := ReadTools(strings.NewReader(string(data)))
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if len(docs) == 0 {
			t.Fatal("no error and no tools")
		}
		if _, err := toolsearch.NewIndexFromDocuments(docs); err != nil {
			t.Fatalf("accepted tools do not index: %v", err)
		}
	})
}

func FuzzReadQueries(f *testing.F) {
	f.Add([]byte(`{"query": "x", "gold": ["a"], "id": "1"}`))
	f.Add([]byte(`{"query": "x", "gold": ["b"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		queries, err := ReadQueries(strings.NewReader(string(data)), func(name string) bool { return name == "a" })
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		for _, q := range queries {
			if len(q.Gold) == 0 || slices.ContainsFunc(q.Gold, func(g string) bool { return g != "a" }) {
				t.Fatalf("accepted query %+v", q)
			}
		}
	})
}
