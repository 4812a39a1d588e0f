package example_test

// The example's MCP toolset: the documentation server's declared tools,
// bound to a session of example/docserver with the generated docs.Register,
// and the researcher agent finding its deferred read_doc tool and calling
// it.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goa-discovery/goa-discovery/example/docserver"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/researcher"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/docs"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// docsServer is a test double of the documentation's MCP server that lists
// the two tools with the given schemas, for registrations that must fail.
func docsServer(schemas map[string][2]any) *sdk.Server {
	pages := map[string]string{"/seats/invite": "Invite seats from the admin console."}
	s := sdk.NewServer(&sdk.Implementation{Name: "docs", Version: "1.0.0"}, nil)
	s.AddTool(&sdk.Tool{Name: "search_docs", Description: "Search", InputSchema: schemas["search_docs"][0], OutputSchema: schemas["search_docs"][1]},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"pages": []string{"/billing/usage"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "read_doc", Description: "Read", InputSchema: schemas["read_doc"][0]},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			for path, text := range pages {
				if strings.Contains(string(req.Params.Arguments), path) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
				}
			}
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such page"}}}, nil
		})
	return s
}

// declaredSchemas returns the design's schemas of the docs tools by MCP
// name: payload, then result (nil when none).
func declaredSchemas() map[string][2]any {
	out := map[string][2]any{}
	for _, s := range docs.ToolSchemas() {
		var result any
		if s.Result != nil {
			result = s.Result
		}
		out[s.Name.Tool()] = [2]any{s.Payload, result}
	}
	return out
}

func TestResearcherFindsAndCallsDeferredMCPTool(t *testing.T) {
	ctx := context.Background()
	session, err := mcp.Connect(ctx, docs.Server, mcp.InMemory(docserver.New()))
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	rt := runtime.New()
	if err := docs.Register(ctx, rt, session); err != nil {
		t.Fatalf("register docs: %v", err)
	}
	if err := knowledge.Register(rt, &articleShelf{}); err != nil {
		t.Fatalf("register knowledge: %v", err)
	}
	steps := []model.Message{
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "read documentation page"})),
		model.AssistantMessage(model.ToolCallPart(model.ToolCall{ID: "c1", Name: "docs_read_doc", Arguments: []byte(`{"path":"/seats/invite"}`)})),
		model.AssistantMessage(model.TextPart("Invite seats from the admin console.")),
	}
	var declared [][]string
	planner := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		var names []string
		for _, d := range in.Agent.AdvertisedToolDefinitions() {
			names = append(names, d.Name)
		}
		declared = append(declared, names)
		return model.NewResponse(steps[in.Agent.Step()-1], model.FinishStop, model.Usage{})
	})
	if err := researcher.RegisterResearcherAgent(ctx, rt, researcher.ResearcherAgentConfig{Planner: planner}); err != nil {
		t.Fatalf("register researcher: %v", err)
	}
	out, err := researcher.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("How do I invite seats?")})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	var result *model.ToolResult
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.DiscoveryResult != nil {
				for _, s := range p.DiscoveryResult.Tools {
					found = append(found, s.Name)
				}
			}
			if p.ToolResult != nil {
				result = p.ToolResult
			}
		}
	}
	if len(found) == 0 || found[0] != "docs_read_doc" {
		t.Errorf("discovery found %v, want docs_read_doc", found)
	}
	if result == nil || result.IsError || result.Content != "# Inviting seats\n\nInvite seats from the admin console; an invited seat counts as active from its first sign-in." {
		t.Errorf("read_doc result %+v, want the page's text", result)
	}
	if len(declared) < 2 || slices.Contains(declared[0], "docs_read_doc") || !slices.Contains(declared[1], "docs_read_doc") {
		t.Errorf("declared per step %v: read_doc must be declared only once found", declared)
	}
}

// TestDocsRegisterRefusesAnotherServer checks that the generated Register
// binds the toolset only to a session of its own server.
func TestDocsRegisterRefusesAnotherServer(t *testing.T) {
	ctx := context.Background()
	session, err := mcp.Connect(ctx, "wiki", mcp.InMemory(docserver.New()))
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	err = docs.Register(ctx, runtime.New(), session)
	if err == nil || !strings.Contains(err.Error(), `session of MCP server "wiki", want "docs"`) {
		t.Fatalf("Register = %v, want the server mismatch", err)
	}
	var mismatch *mcp.MismatchError
	if errors.As(err, &mismatch) {
		t.Fatalf("Register = %v, want no schema comparison", err)
	}
}

// TestDocsRegisterChecksTheServersSchemas checks that the generated
// Register refuses a server whose tool takes other arguments than the
// design declares.
func TestDocsRegisterChecksTheServersSchemas(t *testing.T) {
	ctx := context.Background()
	schemas := declaredSchemas()
	schemas["read_doc"] = [2]any{map[string]any{"type": "object", "properties": map[string]any{"url": map[string]any{"type": "string"}}}, nil}
	session, err := mcp.Connect(ctx, docs.Server, mcp.InMemory(docsServer(schemas)))
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	err = docs.Register(ctx, runtime.New(), session)
	var mismatch *mcp.MismatchError
	if !errors.As(err, &mismatch) || mismatch.Tool != docs.ReadDoc {
		t.Fatalf("Register = %v, want a *mcp.MismatchError on %s", err, docs.ReadDoc)
	}
}
