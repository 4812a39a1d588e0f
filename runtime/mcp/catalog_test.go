package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCatalogBadTools lists a server with a tool whose inputSchema root
// states no type (server-gitlab 2025.4.25 lists every tool so), a tool
// whose arguments are no object, and a good tool: the rootless schema is
// read as an object with a warning, the bad tool is left out with its
// refusal naming the server and the tool, and the others stay.
func TestCatalogBadTools(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bad", Version: "1"}, nil)
	handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	}
	// The SDK's server refuses such schemas: the list is rewritten as it
	// goes out.
	listed := map[string]string{
		"rootless":      `{"properties":{"q":{"type":"string"}},"required":["q"]}`,
		"not_an_object": `{"type":"string"}`,
		"remote_ref":    `{"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/schema.json"}}}`,
		"good":          `{"type":"object","properties":{"q":{"type":"string"}}}`,
	}
	for name := range listed {
		srv.AddTool(&sdk.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, handler)
	}
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if list, ok := res.(*sdk.ListToolsResult); ok && err == nil {
				for _, tool := range list.Tools {
					tool.InputSchema = json.RawMessage(listed[tool.Name])
				}
			}
			return res, err
		}
	})
	s := connect(t, "gitlab", mcp.InMemory(srv))
	cat, err := s.ListCatalog(context.Background(), "gl")
	if err != nil {
		t.Fatalf("ListCatalog: %v", err)
	}
	var names []string
	for _, tool := range cat.Toolset.Tools {
		names = append(names, tool.Name.String())
	}
	if got := strings.Join(names, ","); got != "gl.good,gl.rootless" && got != "gl.rootless,gl.good" {
		t.Errorf("catalog tools %s, want gl.good and gl.rootless", got)
	}
	refused := map[string]bool{}
	for _, r := range cat.Refused {
		if r.Server != "gitlab" || !errors.Is(r.Err, mcp.ErrCatalog) {
			t.Errorf("refusal %v names another server or is no ErrCatalog", r)
		}
		refused[r.Tool] = true
	}
	if len(cat.Refused) != 2 || !refused["not_an_object"] || !refused["remote_ref"] {
		t.Errorf("refused %v, want tools not_an_object and remote_ref of server gitlab", cat.Refused)
	}
	if want := `mcp server "gitlab" tool "rootless": the root of its inputSchema states no type: read as an object`; len(cat.Warnings) != 1 || cat.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", cat.Warnings, want)
	}
}

// TestCheckRefusedTool declares a tool the server lists with a schema the
// catalog leaves out: Check names the refusal, not a missing tool.
func TestCheckRefusedTool(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "bad", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "bad", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if list, ok := res.(*sdk.ListToolsResult); ok && err == nil {
				list.Tools[0].InputSchema = json.RawMessage(`{"type":"string"}`)
			}
			return res, err
		}
	})
	s := connect(t, "srv", mcp.InMemory(srv))
	_, err := s.Check(context.Background(), tools.ToolsetSchema{Name: "ts", Tools: []tools.ToolSchema{tool("ts.bad", `{"type":"object"}`, "")}})
	var me *mcp.MismatchError
	if !errors.As(err, &me) || !me.Missing || !strings.Contains(err.Error(), `declared tool "ts.bad": the server's tool is left out of its catalog: mcp: invalid tool list: mcp server "srv" tool "bad"`) {
		t.Errorf("Check error %v, want the refusal of the server's tool", err)
	}
}
