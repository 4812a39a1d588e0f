package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A GitHub-like MCP server in this process, as a test double of a remote
// one: two tools, one of them with a dotted name.
func exampleServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "github", Version: "v1"}, nil)
	for _, name := range []string{"github.create_issue", "github.list_issues"} {
		s.AddTool(&sdk.Tool{
			Name:        name,
			Description: "Create or list issues of a repository",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`),
		}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: req.Params.Name + " done"}}}, nil
		})
	}
	return s
}

// A design's MCP server connected at run time: a declared toolset checked
// against the server, and the server's whole list as a dynamic, deferred
// source that the agent searches.
func Example() {
	ctx := context.Background()
	rt := runtime.New()

	// mcp.HTTP(url, client) for streamable HTTP (the client's transport
	// authenticates), mcp.Command(path, args...) for stdio.
	session, err := mcp.Connect(ctx, "github", mcp.InMemory(exampleServer()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()

	// Declared: the generated toolset package's Toolset() and Specs().
	issues := tools.ToolsetSchema{Name: "issues", Tools: []tools.ToolSchema{{
		Name:        "issues.github_create_issue", // the MCP tool "github.create_issue"
		Description: "Create an issue",
		Payload:     json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`),
	}}}
	if err := mcp.RegisterToolset(ctx, rt, session, mcp.DeclaredToolset{Schema: issues}); err != nil {
		fmt.Println(err)
		return
	}
	// Dynamic: whatever the server lists, read once per planning step.
	if _, err := mcp.RegisterSource(rt, session, "github"); err != nil {
		fmt.Println(err)
		return
	}

	steps := []model.Message{
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "list issues"})),
		model.AssistantMessage(
			model.ToolCallPart(model.ToolCall{ID: "c1", Name: "github_github_list_issues", Arguments: []byte(`{}`)}),
			model.ToolCallPart(model.ToolCall{ID: "c2", Name: "issues_github_create_issue", Arguments: []byte(`{"title":"crash"}`)}),
		),
		model.AssistantMessage(model.TextPart("done")),
	}
	planner := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		return model.NewResponse(steps[in.Agent.Step()-1], model.FinishStop, model.Usage{})
	})
	err = rt.RegisterAgent(ctx, runtime.AgentRegistration{
		Name:        "triage",
		Immediate:   []tools.Ident{"issues.github_create_issue"},
		MCPToolsets: []runtime.MCPToolset{{Server: "github", Toolset: "github", Deferred: true}},
		Planner:     planner,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := rt.Client("triage").Run(ctx, []model.Message{model.UserMessage("triage")})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			switch {
			case p.DiscoveryResult != nil:
				for _, s := range p.DiscoveryResult.Tools {
					fmt.Println("found:", s.Name)
				}
			case p.ToolResult != nil:
				fmt.Println("result:", p.ToolResult.Content)
			}
		}
	}
	// Output:
	// found: github_github_list_issues
	// found: github_github_create_issue
	// result: github.list_issues done
	// result: github.create_issue done
}

// Servers started as a child process (stdio) and reached over streamable
// HTTP with credentials. Compiled, not run: it would start npx and call a
// remote host.
func ExampleConnect() {
	ctx := context.Background()
	files, err := mcp.Connect(ctx, "files",
		mcp.Command("npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/srv/shared"),
		mcp.WithCallTimeout(30*time.Second),
		mcp.WithLimits(mcp.Limits{MaxTools: 500, MaxResultBytes: 256 << 10}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer files.Close()
	auth := &http.Client{Transport: bearerToken{token: os.Getenv("GITHUB_TOKEN"), next: http.DefaultTransport}}
	github, err := mcp.Connect(ctx, "github", mcp.HTTP("https://mcp.example.com/mcp", auth))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer github.Close()
}

// bearerToken adds a bearer token to each request.
type bearerToken struct {
	token string
	next  http.RoundTripper
}

func (b bearerToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
