package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func tool(id, payload, result string) tools.ToolSchema {
	ts := tools.ToolSchema{Name: tools.Ident(id), Description: "declared", Payload: json.RawMessage(payload)}
	if result != "" {
		ts.Result = json.RawMessage(result)
	}
	return ts
}

func TestCheckDeclared(t *testing.T) {
	// The same schemas as the server's, with other member order, spacing
	// and number spelling.
	echoReordered := `{ "additionalProperties": false, "required": ["text"], "properties": {"text": {"description": "Text to echo", "type": "string"}}, "type": "object" }`
	cases := []struct {
		name     string
		declared []tools.ToolSchema
		want     *mcp.MismatchError // nil: the declaration matches
	}{
		{"matches canonically", []tools.ToolSchema{
			tool("fx.echo", echoReordered, ""),
			tool("fx.add", addInput, `{"required":["sum"],"properties":{"sum":{"type":"integer"}},"type":"object"}`),
			tool("fx.github_create_issue", issueIn, ""),
		}, nil},
		{"missing tool", []tools.ToolSchema{tool("fx.read_file", noInput, "")},
			&mcp.MismatchError{Tool: "fx.read_file", Missing: true}},
		{"property type differs", []tools.ToolSchema{tool("fx.echo", `{"type":"object","properties":{"text":{"type":"integer","description":"Text to echo"}},"required":["text"],"additionalProperties":false}`, "")},
			&mcp.MismatchError{Tool: "fx.echo", Schema: "inputSchema", Pointer: "/properties/text/type", Declared: `"integer"`, Served: `"string"`}},
		{"declared keyword the server lacks, narrower", []tools.ToolSchema{tool("fx.echo", `{"type":"object","properties":{"text":{"type":"string","description":"Text to echo","maxLength":10}},"required":["text"],"additionalProperties":false}`, "")}, nil},
		{"declared type wider than the server's", []tools.ToolSchema{tool("fx.echo", `{"type":"object","properties":{"text":{"type":["integer","string"],"description":"Text to echo"}},"required":["text"],"additionalProperties":false}`, "")},
			&mcp.MismatchError{Tool: "fx.echo", Schema: "inputSchema", Pointer: "/properties/text/type", Declared: `["integer","string"]`, Served: `"string"`}},
		{"required list differs", []tools.ToolSchema{tool("fx.add", `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a"]}`, sumOutput)},
			&mcp.MismatchError{Tool: "fx.add", Schema: "inputSchema", Pointer: "/required/1", Declared: "absent", Served: `"b"`}},
		{"result not declared", []tools.ToolSchema{tool("fx.add", addInput, "")},
			&mcp.MismatchError{Tool: "fx.add", Schema: "outputSchema", Declared: "absent", Served: `{"properties":{"sum":{"type":"integer"}},"required":["sum"],"type":"object"}`}},
	}
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Check(context.Background(), tools.ToolsetSchema{Name: "fx", Tools: tc.declared})
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			var me *mcp.MismatchError
			if !errors.As(err, &me) || !errors.Is(err, mcp.ErrDeclaration) {
				t.Fatalf("Check error = %v, want a *MismatchError", err)
			}
			tc.want.Server = "fixture"
			if *me != *tc.want {
				t.Errorf("Check error = %+v\nwant %+v", *me, *tc.want)
			}
			if me.Error() == "" {
				t.Error("empty error text")
			}
		})
	}
}

// TestDifferences checks that Differences lists every difference Check
// would stop at the first of, in order, and none for a declaration Check
// accepts.
func TestDifferences(t *testing.T) {
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	ctx := context.Background()
	same := tools.ToolsetSchema{Name: "fx", Tools: []tools.ToolSchema{tool("fx.echo", echoInput, ""), tool("fx.add", addInput, sumOutput)}}
	if diffs, err := s.Differences(ctx, same); err != nil || len(diffs) != 0 {
		t.Fatalf("Differences of a matching declaration: %v, %v", diffs, err)
	}
	changed := tools.ToolsetSchema{Name: "fx", Tools: []tools.ToolSchema{
		tool("fx.read_file", noInput, ""),
		tool("fx.echo", `{"type":"object","properties":{"text":{"type":"integer","maxLength":3}},"required":["text"],"additionalProperties":false}`, ""),
		tool("fx.add", addInput, ""),
	}}
	diffs, err := s.Differences(ctx, changed)
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.MismatchError{
		{Server: "fixture", Tool: "fx.read_file", Missing: true},
		{Server: "fixture", Tool: "fx.echo", Schema: "inputSchema", Pointer: "/properties/text/type", Declared: `"integer"`, Served: `"string"`},
		{Server: "fixture", Tool: "fx.add", Schema: "outputSchema", Declared: "absent", Served: `{"properties":{"sum":{"type":"integer"}},"required":["sum"],"type":"object"}`},
	}
	if len(diffs) != len(want) {
		t.Fatalf("Differences = %v, want %d", diffs, len(want))
	}
	for i := range want {
		if *diffs[i] != want[i] {
			t.Errorf("difference %d = %+v\nwant %+v", i, *diffs[i], want[i])
		}
	}
	var first *mcp.MismatchError
	if _, err := s.Check(ctx, changed); !errors.As(err, &first) || *first != *diffs[0] {
		t.Errorf("Check error = %v, want the first difference %v", err, diffs[0])
	}
}
