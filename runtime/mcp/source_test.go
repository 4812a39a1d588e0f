package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// readUntil reads src until cond holds of its toolset, failing after a
// long deadline (notifications arrive asynchronously).
func readUntil(t *testing.T, src *mcp.Source, cond func(runtime.ResolvedToolset) bool) runtime.ResolvedToolset {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := src.ListToolsets(context.Background())
		if err != nil {
			t.Fatalf("ListToolsets: %v", err)
		}
		if cond(got[0]) {
			return got[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the source still serves %d tools", len(got[0].Schema.Tools))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSourceRereadsAfterListChanged(t *testing.T) {
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	src, err := mcp.NewSource(s, "fx")
	if err != nil {
		t.Fatal(err)
	}
	first := readUntil(t, src, func(runtime.ResolvedToolset) bool { return true })
	again := readUntil(t, src, func(runtime.ResolvedToolset) bool { return true })
	if n := f.lists.Load(); n != 1 {
		t.Fatalf("two reads without a change sent %d tools/list requests, want 1", n)
	}
	if first.Token != again.Token || first.Token == "" {
		t.Errorf("tokens %q and %q for one list", first.Token, again.Token)
	}

	// The server changes echo's schema and notifies.
	f.server.AddTool(&sdk.Tool{Name: "echo", Description: "Echo a text back", InputSchema: json.RawMessage(noInput)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "changed"}}}, nil
		})
	changed := readUntil(t, src, func(ts runtime.ResolvedToolset) bool { return ts.Token != first.Token })
	if n := f.lists.Load(); n < 2 {
		t.Errorf("the changed list was served after %d tools/list requests", n)
	}
	if changed.Fingerprint == first.Fingerprint {
		t.Error("the changed list has the first list's fingerprint")
	}

	// A call admitted under the first list runs only if its tool did not
	// change since.
	ctx := context.Background()
	_, err = src.CallTool(ctx, &runtime.RegistryCall{Tool: "fx.echo", Token: first.Token, Arguments: []byte(`{"text":"x"}`)})
	var ce *mcp.CallError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "changed on the server") {
		t.Errorf("call of a changed tool under the old list: %v, want refused", err)
	}
	got, err := src.CallTool(ctx, &runtime.RegistryCall{Tool: "fx.add", Token: first.Token, Arguments: []byte(`{"a":1,"b":2}`)})
	if err != nil || string(got) != `{"sum":3}` {
		t.Errorf("call of an unchanged tool under the old list = %s, %v; want {\"sum\":3}", got, err)
	}
	if _, err := src.CallTool(ctx, &runtime.RegistryCall{Tool: "fx.add", Token: "unknown", Arguments: []byte(`{"a":1,"b":2}`)}); err == nil {
		t.Error("call under an unknown token accepted")
	}
	if _, err := src.CallTool(ctx, &runtime.RegistryCall{Tool: "fx.add", Token: changed.Token, Arguments: []byte(`{"a":"1"}`)}); !errors.As(err, &ce) || ce.Kind != mcp.CallInvalid {
		t.Errorf("call with invalid arguments: %v, want an invalid call", err)
	}
}

func TestSourceWithoutNotificationsReadsEveryTime(t *testing.T) {
	f := newFixture(fixtureOptions{noNotify: true})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	src, err := mcp.NewSource(s, "fx")
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for range 3 {
		tokens = append(tokens, readUntil(t, src, func(runtime.ResolvedToolset) bool { return true }).Token)
	}
	if tokens[0] == "" || tokens[1] != tokens[0] || tokens[2] != tokens[0] {
		t.Errorf("three reads of one list gave tokens %q", tokens)
	}
	if n := f.lists.Load(); n != 3 {
		t.Errorf("three reads sent %d tools/list requests, want 3", n)
	}
	if _, err := src.ResolveToolset(context.Background(), "other"); err == nil {
		t.Error("ResolveToolset of another toolset succeeded")
	}
}

func TestSourceReadOncePerStep(t *testing.T) {
	f := newFixture(fixtureOptions{noNotify: true})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	agent := newAgent(t, s, true, scripted(t,
		func(*testing.T, *runtime.PlanInput) model.Message {
			return model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "echo"}))
		},
		func(*testing.T, *runtime.PlanInput) model.Message {
			return model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Query: "add"}))
		},
	))
	before := f.lists.Load() // the declared toolset's check
	out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.lists.Load() - before; got != int64(out.Steps) {
		t.Errorf("%d steps sent %d tools/list requests, want one per step", out.Steps, got)
	}
}
