package codegen_test

import (
	"os"
	"path/filepath"
	"testing"
)

// isDynamicMCPPackage reports whether the generated toolset package in dir
// is that of a dynamic MCP toolset: names and Register only, no schemas.
func isDynamicMCPPackage(t *testing.T, dir string) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(dir, "schemas.go"))
	switch {
	case os.IsNotExist(err):
		return true
	case err != nil:
		t.Fatal(err)
	}
	return false
}

// dynamicMCPCheck is the test file that checks the package of the
// mcpdynamic design's dynamic MCP toolset against an SDK server in this
// process: its Register refuses a session of another server, and registers
// a session of the design's server so that the generated agent that uses
// the toolset immediately is offered the tool the server lists.
const dynamicMCPCheck = `package golden_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"example.com/golden/mcpdynamic/agents/caller"
	"example.com/golden/mcpdynamic/toolsets/everything"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoServer is an SDK server with one tool, echo.
func echoServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "v1"}, nil)
	s.AddTool(&sdk.Tool{
		Name:        "echo",
		Description: "Echo a message",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}},
	}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echoed"}}}, nil
	})
	return s
}

func connectEcho(t *testing.T, server string) *mcp.Session {
	t.Helper()
	s, err := mcp.Connect(context.Background(), server, mcp.InMemory(echoServer()))
	if err != nil {
		t.Fatalf("connect %s: %v", server, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestDynamicMCPRegister(t *testing.T) {
	ctx := context.Background()
	rt := runtime.New()
	err := everything.Register(ctx, rt, connectEcho(t, "other"))
	var se *mcp.ServerError
	if !errors.As(err, &se) {
		t.Fatalf("Register with a session of server \"other\" = %v; want an *mcp.ServerError", err)
	}
	if want := (mcp.ServerError{Toolset: everything.Name, Want: everything.Server, Got: "other"}); *se != want {
		t.Fatalf("ServerError %+v, want %+v", *se, want)
	}
	if err := everything.Register(ctx, rt, nil); !errors.Is(err, mcp.ErrWrongServer) {
		t.Fatalf("Register with a nil session: %v, want ErrWrongServer", err)
	}
	if err := everything.Register(ctx, rt, connectEcho(t, everything.Server)); err != nil {
		t.Fatalf("Register with a session of %q: %v", everything.Server, err)
	}
	var offered []string
	planner := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) { // a test double
		for _, d := range in.Agent.AdvertisedToolDefinitions() {
			offered = append(offered, d.Name)
		}
		return model.NewResponse(model.AssistantMessage(model.TextPart("done")), model.FinishStop, model.Usage{})
	})
	if err := caller.RegisterCallerAgent(ctx, rt, caller.CallerAgentConfig{Planner: planner}); err != nil {
		t.Fatalf("register caller: %v", err)
	}
	if _, err := caller.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("Echo hello.")}); err != nil {
		t.Fatalf("run caller: %v", err)
	}
	if !slices.Contains(offered, everything.Name+"_echo") {
		t.Fatalf("caller is offered %q, want the server's tool %s_echo", offered, everything.Name)
	}
}
`
