package docserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goa-discovery/goa-discovery/example/docserver"
)

// connect returns an SDK client session with a new server, in memory.
func connect(t testing.TB) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	client, server := sdk.NewInMemoryTransports()
	if _, err := docserver.New().Connect(ctx, server, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, client, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// text returns the text of a result's content blocks.
func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestTools(t *testing.T) {
	cases := []struct {
		name, tool, args string
		want             string // the text of the result
		structured       string // structuredContent as JSON, when any
		isError          bool
	}{
		{"search one page", "search_docs", `{"query":"API usage"}`, `{"pages":["/billing/api-usage"]}`, `{"pages":["/billing/api-usage"]}`, false},
		{"search every page", "search_docs", `{"query":"counts"}`, `{"pages":["/billing/api-usage","/billing/exports","/seats/invite"]}`,
			`{"pages":["/billing/api-usage","/billing/exports","/seats/invite"]}`, false},
		{"search nothing found", "search_docs", `{"query":"refund"}`, `{"pages":[]}`, `{"pages":[]}`, false},
		{"search without keywords", "search_docs", `{"query":"  "}`, "the query holds no keyword", "", true},
		{"search with an unknown argument", "search_docs", `{"query":"usage","limit":3}`, `invalid arguments: json: unknown field "limit"`, "", true},
		{"read a page", "read_doc", `{"path":"/billing/exports"}`, "# How exports are counted\n\nEach CSV or JSON export counts once, whatever its size; a scheduled export counts at every run.", "", false},
		{"read a missing page", "read_doc", `{"path":"/billing/refunds"}`, "no page /billing/refunds", "", true},
		{"read with a wrong type", "read_doc", `{"path":7}`, "invalid arguments: json: cannot unmarshal number", "", true},
	}
	cs := connect(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError || !strings.HasPrefix(text(res), tc.want) {
				t.Errorf("result %q (isError %v), want %q (isError %v)", text(res), res.IsError, tc.want, tc.isError)
			}
			var structured string
			if res.StructuredContent != nil {
				b, err := json.Marshal(res.StructuredContent)
				if err != nil {
					t.Fatal(err)
				}
				structured = string(b)
			}
			if structured != tc.structured {
				t.Errorf("structuredContent %s, want %s", structured, tc.structured)
			}
		})
	}
}

func TestListsTheDeclaredTools(t *testing.T) {
	res, err := connect(t).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "read_doc,search_docs" {
		t.Errorf("the server lists %v, want read_doc and search_docs", names)
	}
}

// FuzzTools sends arbitrary arguments to both tools: each call gets a
// result, an error result for arguments the tool does not take, and never
// a protocol failure.
func FuzzTools(f *testing.F) {
	f.Add("search_docs", `{"query":"API usage"}`)
	f.Add("read_doc", `{"path":"/seats/invite"}`)
	f.Add("read_doc", `{"path":null}`)
	f.Add("search_docs", `{}`)
	cs := connect(f)
	f.Fuzz(func(t *testing.T, tool, args string) {
		if tool != "search_docs" && tool != "read_doc" || !json.Valid([]byte(args)) || !strings.HasPrefix(strings.TrimSpace(args), "{") {
			t.Skip()
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		if !res.IsError && text(res) == "" {
			t.Errorf("%s %s: an empty result", tool, args)
		}
	})
}
