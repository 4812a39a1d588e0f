package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

func TestRegisterToolsetRefusals(t *testing.T) {
	schema := tools.MustCompileSchema([]byte(toolPayload))
	spec := func(id tools.Ident) tools.ToolSpec {
		return tools.ToolSpec{Name: id, Payload: tools.NewRawCodec(schema)}
	}
	tool := func(id tools.Ident) tools.ToolSchema {
		return tools.ToolSchema{Name: id, Description: "x", Payload: json.RawMessage(toolPayload)}
	}
	exec := &recordingExecutor{}
	tests := []struct {
		name string
		reg  runtime.ToolsetRegistration
		want string
	}{
		{"bad name", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "1x"}, Executor: exec}, "starts with"},
		{"no executor", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a"}}, "no executor"},
		{"tool of another toolset", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a", Tools: []tools.ToolSchema{tool("b.x")}}, Specs: []tools.ToolSpec{spec("b.x")}, Executor: exec}, "belongs to toolset"},
		{"tool without spec", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a", Tools: []tools.ToolSchema{tool("a.x")}}, Executor: exec}, "has no spec"},
		{"spec without tool", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a"}, Specs: []tools.ToolSpec{spec("a.x")}, Executor: exec}, "names no tool"},
		{"tool twice", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a", Tools: []tools.ToolSchema{tool("a.x"), tool("a.x")}}, Specs: []tools.ToolSpec{spec("a.x")}, Executor: exec}, "listed twice"},
		{"spec without codec", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a", Tools: []tools.ToolSchema{tool("a.x")}}, Specs: []tools.ToolSpec{{Name: "a.x"}}, Executor: exec}, "no payload codec"},
		{"bad MCP server name", runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a"}, Executor: exec, MCPServer: "my server"}, `toolset "a": MCP server:`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := runtime.New().RegisterToolset(tc.reg)
			if !errors.Is(err, runtime.ErrInvalidRegistration) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an invalid registration containing %q", err, tc.want)
			}
		})
	}
	rt := runtime.New()
	registerToolset(t, rt, "a", exec, toolDef{name: "x", description: "x"})
	if err := rt.RegisterToolset(runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "a"}, Executor: exec}); !errors.Is(err, runtime.ErrAlreadyRegistered) {
		t.Errorf("second registration: %v", err)
	}
}

func TestRegisterAgentRefusals(t *testing.T) {
	p := runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) { return nil, nil })
	tests := []struct {
		name string
		reg  runtime.AgentRegistration
		want string
	}{
		{"no name", runtime.AgentRegistration{Planner: p}, "no name"},
		{"no planner", runtime.AgentRegistration{Name: "a"}, "no planner"},
		{"immediate and deferred", runtime.AgentRegistration{Name: "a", Planner: p, Immediate: []tools.Ident{"t.x"}, Deferred: []tools.Ident{"t.x"}}, "listed as immediate and deferred"},
		{"bad ident", runtime.AgentRegistration{Name: "a", Planner: p, Deferred: []tools.Ident{"nodot"}}, "want \"toolset.tool\""},
		{"negative cap", runtime.AgentRegistration{Name: "a", Planner: p, Caps: runtime.Caps{MaxSteps: -1}}, "negative cap"},
		{"version on a whole registry", runtime.AgentRegistration{Name: "a", Planner: p, Registries: []runtime.RegistrySource{{Registry: "r", Version: "1"}}}, "pins a named toolset"},
		{"reserved model name", runtime.AgentRegistration{Name: "a", Planner: p, Immediate: []tools.Ident{"tool.search"}},
			`agent "a": immediate tool "tool.search": the model knows this tool as "tool_search", a name reserved for tool discovery (reserved: tool_search, call_tool, tool_search_tool_bm25, tool_search_tool_regex); rename the tool or its toolset`},
		{"reserved hosted search name", runtime.AgentRegistration{Name: "a", Planner: p, Deferred: []tools.Ident{"tool_search_tool.regex"}},
			`deferred tool "tool_search_tool.regex": the model knows this tool as "tool_search_tool_regex", a name reserved`},
		{"model name longer than the providers allow", runtime.AgentRegistration{Name: "a", Planner: p, Deferred: []tools.Ident{tools.Ident(strings.Repeat("t", 40) + "." + strings.Repeat("y", 24))}},
			`agent "a": deferred tool "` + strings.Repeat("t", 40) + "." + strings.Repeat("y", 24) + `": the model knows this tool as "` + strings.Repeat("t", 40) + "_" + strings.Repeat("y", 24) + `", 65 characters long; toolset name, '_' and tool name together must fit in 64`},
		{"shared model name", runtime.AgentRegistration{Name: "a", Planner: p, Immediate: []tools.Ident{"a_b.c"}, Deferred: []tools.Ident{"a.b_c"}},
			`agent "a": tool "b_c" of toolset "a" and tool "c" of toolset "a_b" both reach the model as "a_b_c"; rename one`},
		{"shared model name, both deferred", runtime.AgentRegistration{Name: "a", Planner: p, Deferred: []tools.Ident{"x.y_z", "x_y.z"}},
			`tool "z" of toolset "x_y" and tool "y_z" of toolset "x" both reach the model as "x_y_z"; rename one`},
		{"bad policy", runtime.AgentRegistration{Name: "a", Planner: p, Policy: runtime.Policy{DenyToolsets: []string{"a.b"}}}, "policy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := runtime.New().RegisterAgent(context.Background(), tc.reg)
			if !errors.Is(err, runtime.ErrInvalidRegistration) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an invalid registration containing %q", err, tc.want)
			}
		})
	}
}

// TestRegisterAgentRefusesMissingToolset: an agent whose toolset nobody
// registered is refused when it is registered, not at the first step of a
// run, and the error says which registration to make.
func TestRegisterAgentRefusesMissingToolset(t *testing.T) {
	client := newScriptedClient(final(t, "hello"))
	rt := runtime.New()
	for _, reg := range []runtime.AgentRegistration{
		{Name: "a", Immediate: []tools.Ident{"ghost.x"}, Planner: plannerFor(client)},
		{Name: "a", Deferred: []tools.Ident{"ghost.x"}, Planner: plannerFor(client)},
	} {
		err := rt.RegisterAgent(context.Background(), reg)
		for _, want := range []string{`agent "a" uses toolset "ghost", which is not registered`, "register it before the agent", "Register function of its generated toolset package"} {
			if !errors.Is(err, runtime.ErrInvalidRegistration) || err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("register %v: error %v, want an invalid registration containing %q", reg.Immediate, err, want)
			}
		}
	}
	if _, err := rt.Client("a").Run(context.Background(), userSays("hi")); !errors.Is(err, runtime.ErrUnknownAgent) {
		t.Errorf("the refused agent runs: %v", err)
	}
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "a", Planner: plannerFor(client)}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Client("nobody").Run(context.Background(), userSays("hi")); !errors.Is(err, runtime.ErrUnknownAgent) {
		t.Errorf("unknown agent: %v", err)
	}
	bad := []model.Message{model.AssistantMessage(model.TextPart("I speak first"))}
	if _, err := rt.Client("a").Run(context.Background(), bad); !errors.Is(err, runtime.ErrInvalidInput) {
		t.Errorf("assistant input: %v", err)
	}
}

func TestPrebuiltDeferredIndex(t *testing.T) {
	docs := func(names ...string) []toolsearch.Document {
		var out []toolsearch.Document
		for _, n := range names {
			for _, d := range recordsTools {
				if "records."+d.name == n {
					out = append(out, toolsearch.Document{Name: n, Alias: discovery.PortableName(n), Description: d.description, Parameters: json.RawMessage(toolPayload)})
				}
			}
		}
		return out
	}
	deferred := []string{"records.search", "records.analyze", "records.delete", "records.export"}
	tests := []struct {
		name    string
		indexed []string
		wantErr string
	}{
		{name: "matching", indexed: deferred},
		{name: "missing a tool", indexed: deferred[:3], wantErr: "holds 3 tools, the agent defers 4"},
		{name: "another tool", indexed: append(deferred[:3:3], "records.lookup"), wantErr: "unknown tool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := toolsearch.NewIndexFromDocuments(docs(tc.indexed...))
			if err != nil {
				t.Fatal(err)
			}
			client := newScriptedClient(respond(t, searchPart("d1", "revenue trends")), final(t, "done"))
			rt, _ := newRecordsRuntime(t, client, func(r *runtime.AgentRegistration) { r.DeferredIndex = ix })
			out, err := rt.Client("assistant").Run(context.Background(), userSays("go"))
			if tc.wantErr != "" {
				if !errors.Is(err, runtime.ErrCatalog) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := snapshotNames(discoveryResults(out.Messages)["d1"]); len(got) == 0 || got[0] != "records_analyze" {
				t.Errorf("found %v through the prebuilt index", got)
			}
		})
	}
}
