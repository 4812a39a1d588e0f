package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeTool is a tool of an in-process upstream: it answers with its name
// and arguments.
type fakeTool struct{ name, description string }

// fakeServer returns an SDK server with the tools.
func fakeServer(server string, ts ...fakeTool) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: server, Version: "v1"}, nil)
	for _, t := range ts {
		addFake(s, server, t)
	}
	return s
}

func addFake(s *sdk.Server, server string, t fakeTool) {
	s.AddTool(&sdk.Tool{
		Name:        t.name,
		Description: t.description,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"The text."}},"required":["text"]}`),
	}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: server + "/" + t.name + " " + string(req.Params.Arguments)}}}, nil
	})
}

// client is a go-sdk client session of a gateway with the list_changed
// notifications it received.
type client struct {
	*sdk.ClientSession
	changed chan struct{}
}

// connect serves one client session of g in memory.
func connect(t testing.TB, g *Gateway) *client {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	if _, err := g.NewServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	c := &client{changed: make(chan struct{}, 16)}
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { c.changed <- struct{}{} },
	})
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	c.ClientSession = cs
	return c
}

// newGateway returns a gateway of in-process upstreams, closed with the
// test.
func newGateway(t *testing.T, opts Options, ups ...Upstream) *Gateway {
	t.Helper()
	g, err := New(ups, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

func inMemory(name string, s *sdk.Server) Upstream {
	return Upstream{Name: name, Transport: mcp.InMemory(s)}
}

// names lists the client's tools/list.
func (c *client) names(t *testing.T) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// search calls tool_search and decodes its answer.
func (c *client) search(t testing.TB, args map[string]any) SearchAnswer {
	t.Helper()
	res, err := c.CallTool(context.Background(), &sdk.CallToolParams{Name: "tool_search", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool_search: %s", text(res))
	}
	var ans SearchAnswer
	if err := json.Unmarshal([]byte(text(res)), &ans); err != nil {
		t.Fatalf("tool_search answer %q: %v", text(res), err)
	}
	return ans
}

// call calls a tool and returns its text and whether it is an error.
func (c *client) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	res, err := c.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error(), true
	}
	return text(res), res.IsError
}

// waitChanged waits for a list_changed notification.
func (c *client) waitChanged(t *testing.T) {
	t.Helper()
	select {
	case <-c.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func foundNames(ans SearchAnswer) []string {
	var out []string
	for _, f := range ans.Tools {
		out = append(out, f.Name)
	}
	return out
}

func sleep() { time.Sleep(50 * time.Millisecond) }
