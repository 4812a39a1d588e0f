package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNullResultProperty registers a declaration whose result property
// is optional where the server's may be null ("X or null", as mcp import
// declares it), and calls the tool: the server's null reads as absent and
// the result decodes with the declared codec.
func TestNullResultProperty(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "nulls", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "status", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"next":{"type":["string","null"]},"n":{"type":"integer"}},"required":["next","n"],"additionalProperties":false}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{StructuredContent: map[string]any{"next": nil, "n": 1}, Content: []sdk.Content{&sdk.TextContent{Text: "{}"}}}, nil
		})
	s := connect(t, "nulls", mcp.InMemory(srv))
	rt := runtime.New()
	declared := tools.ToolsetSchema{Name: "nl", Tools: []tools.ToolSchema{tool("nl.status", `{"type":"object","additionalProperties":false}`,
		`{"type":"object","properties":{"next":{"type":"string"},"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`)}}
	ctx := context.Background()
	if err := mcp.RegisterToolset(ctx, rt, s, mcp.DeclaredToolset{Schema: declared}); err != nil {
		t.Fatalf("RegisterToolset: %v", err)
	}
	reg := runtime.AgentRegistration{
		Name:      "assistant",
		Immediate: []tools.Ident{"nl.status"},
		Planner: scripted(t, func(*testing.T, *runtime.PlanInput) model.Message {
			return calls(call("c1", "nl_status", `{}`))
		}),
	}
	if err := rt.RegisterAgent(ctx, reg); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("assistant").Run(ctx, []model.Message{model.UserMessage("status")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(out.Calls) != 1 || out.Calls[0].Error != "" {
		t.Fatalf("calls %+v, want one call without error", out.Calls)
	}
	res := results(out)["c1"]
	b, _ := json.Marshal(res)
	if res.IsError || res.Content != `{"n":1}` {
		t.Errorf("result %s, want the content {\"n\":1}", b)
	}
}
