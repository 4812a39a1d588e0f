package mcp_test

// MCP tools through a runtime agent with a scripted planner: discovered,
// called, validated, filtered by policy, and failing into error results.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// scriptStep returns the assistant message of one planning step.
type scriptStep func(t *testing.T, in *runtime.PlanInput) model.Message

// scripted is a test double of a model: it plays steps in order and
// answers "done" after the last one.
func scripted(t *testing.T, steps ...scriptStep) runtime.Planner {
	n := 0
	return runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		msg := model.AssistantMessage(model.TextPart("done"))
		if n < len(steps) {
			msg = steps[n](t, in)
		}
		n++
		return model.NewResponse(msg, model.FinishStop, model.Usage{})
	})
}

func calls(cs ...model.ToolCall) model.Message {
	parts := make([]model.Part, len(cs))
	for i, c := range cs {
		parts[i] = model.ToolCallPart(c)
	}
	return model.AssistantMessage(parts...)
}

func call(id, name, args string) model.ToolCall {
	return model.ToolCall{ID: id, Name: name, Arguments: []byte(args)}
}

// results returns the tool results of a run by call id.
func results(out *runtime.RunOutput) map[string]model.ToolResult {
	got := make(map[string]model.ToolResult)
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				got[p.ToolResult.CallID] = *p.ToolResult
			}
		}
	}
	return got
}

// discovered returns the names a run's discovery results returned.
func discovered(msgs []model.Message) []string {
	var names []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.DiscoveryResult != nil {
				for _, s := range p.DiscoveryResult.Tools {
					names = append(names, s.Name)
				}
			}
		}
	}
	return names
}

// declaredFixture is the part of the fixture a design would declare.
var declaredFixture = tools.ToolsetSchema{Name: "fxd", Tools: []tools.ToolSchema{
	tool("fxd.echo", echoInput, ""),
	tool("fxd.add", addInput, sumOutput),
	tool("fxd.fail", noInput, ""),
	tool("fxd.bad_output", noInput, sumOutput),
	tool("fxd.big", noInput, ""),
	tool("fxd.slow", noInput, ""),
	tool("fxd.exit", noInput, ""),
}}

// newAgent registers the fixture's declared toolset (immediate) and its
// dynamic source "fx" with a runtime, and an agent over both.
func newAgent(t *testing.T, s *mcp.Session, deferred bool, planner runtime.Planner) *runtime.AgentClient {
	t.Helper()
	rt := runtime.New()
	if err := mcp.RegisterToolset(context.Background(), rt, s, mcp.DeclaredToolset{Schema: declaredFixture}); err != nil {
		t.Fatalf("RegisterToolset: %v", err)
	}
	if _, err := mcp.RegisterSource(rt, s, "fx"); err != nil {
		t.Fatalf("RegisterSource: %v", err)
	}
	var immediate []tools.Ident
	for _, ts := range declaredFixture.Tools {
		immediate = append(immediate, ts.Name)
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:       "assistant",
		Immediate:  immediate,
		Registries: []runtime.RegistrySource{{Registry: s.Server(), Toolset: "fx", Deferred: deferred}},
		Planner:    planner,
	})
	if err != nil {
		t.Fatalf("RegisterAgent: %v", err)
	}
	return rt.Client("assistant")
}

func TestAgentDiscoversAndCalls(t *testing.T) {
	for _, tc := range transports {
		t.Run(tc.name, func(t *testing.T) {
			tr, f := tc.open(t, fixtureOptions{pageSize: 4})
			s := connect(t, "fixture", tr)
			var declared []string
			agent := newAgent(t, s, true, scripted(t,
				func(t *testing.T, in *runtime.PlanInput) model.Message {
					return model.AssistantMessage(
						model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "create a github issue"}),
						model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Names: []string{"fx_add", "fx_repo_list"}}),
					)
				},
				func(t *testing.T, in *runtime.PlanInput) model.Message {
					for _, d := range in.Agent.AdvertisedToolDefinitions() {
						declared = append(declared, d.Name)
					}
					return calls(
						call("c1", "fx_github_create_issue", `{"title":"crash on start"}`),
						call("c2", "fx_add", `{"a":2,"b":40}`),
						call("c3", "fx_add", `{"a":"two","b":40}`),
						call("c4", "fx_repo_list", `{}`),
						call("c5", "fxd_add", `{"a":1,"b":1}`),
						call("c6", "fxd_echo", `{"text":"hi","extra":1}`),
					)
				},
			))
			out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("file an issue")})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if d := discovered(out.Messages); !slices.Contains(d, "fx_github_create_issue") || !slices.Contains(d, "fx_add") {
				t.Errorf("discovery returned %v, want fx_github_create_issue and fx_add", d)
			}
			for _, want := range []string{"fxd_echo", "tool_search", "fx_github_create_issue", "fx_add", "fx_repo_list"} {
				if !slices.Contains(declared, want) {
					t.Errorf("step 2 declares %v, missing %q", declared, want)
				}
			}
			res := results(out)
			for id, want := range map[string]string{
				"c1": "created issue crash on start",
				"c2": `{"sum":42}`,
				"c4": "alpha\nbeta",
				"c5": `{"sum":2}`,
			} {
				if r := res[id]; r.IsError || r.Content != want {
					t.Errorf("result of %s = %+v, want %q", id, r, want)
				}
			}
			for _, id := range []string{"c3", "c6"} {
				if r := res[id]; !r.IsError || !strings.Contains(r.Content, "Invalid arguments") {
					t.Errorf("result of %s = %+v, want an invalid-arguments error", id, r)
				}
			}
			if f != nil {
				f.mu.Lock()
				called := slices.Clone(f.called)
				f.mu.Unlock()
				if want := []string{"github.create_issue", "add", "repo/list", "add"}; !slices.Equal(called, want) {
					t.Errorf("the server received calls of %v, want %v (invalid arguments are never sent)", called, want)
				}
			}
			if src := out.Calls[0].Source; src.Registry != "fixture" || src.Toolset != "fx" || src.Token == "" {
				t.Errorf("call c1 recorded source %+v, want the fixture's fx list with its token", src)
			}
		})
	}
}

func TestCallFailuresBecomeErrorResults(t *testing.T) {
	for _, tc := range transports {
		t.Run(tc.name, func(t *testing.T) {
			tr, _ := tc.open(t, fixtureOptions{})
			s := connect(t, "fixture", tr, mcp.WithLimits(mcp.Limits{MaxResultBytes: 1000}), mcp.WithCallTimeout(2_000_000_000)) // well above a loaded machine's call, well below slow's 3 s
			agent := newAgent(t, s, false, scripted(t, func(t *testing.T, in *runtime.PlanInput) model.Message {
				return calls(
					call("fail", "fxd_fail", `{}`),
					call("bad", "fxd_bad_output", `{}`),
					call("big", "fxd_big", `{}`),
					call("dyn-fail", "fx_fail", `{}`),
					call("dyn-bad", "fx_bad_output", `{}`),
					call("slow", "fxd_slow", `{}`),
					call("after-slow", "fxd_echo", `{"text":"again"}`),
					call("exit", "fxd_exit", `{}`),
					call("after-exit", "fxd_echo", `{"text":"back"}`),
					call("dyn-after-exit", "fx_echo", `{"text":"back too"}`),
				)
			}))
			out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("break things")})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			res := results(out)
			for id, want := range map[string]string{
				"fail":     "reported an error: disk full",
				"bad":      "does not match the declared result schema",
				"big":      "more than the limit of 1000",
				"dyn-fail": "reported an error: disk full",
				"dyn-bad":  "does not match the tool's output schema",
				"slow":     "no answer within 2s",
				"exit":     "the connection to the server was lost",
			} {
				r := res[id]
				if !r.IsError || !strings.Contains(r.Content, want) {
					t.Errorf("result of %s = %q (error %v), want an error saying %q", id, r.Content, r.IsError, want)
				}
				for _, leak := range []string{"127.0.0.1", "http://", os.Args[0], "pipe"} {
					if strings.Contains(r.Content, leak) {
						t.Errorf("result of %s leaks %q: %s", id, leak, r.Content)
					}
				}
			}
			for id, want := range map[string]string{"after-slow": "again", "after-exit": "back", "dyn-after-exit": "back too"} {
				if r := res[id]; r.IsError || r.Content != want {
					t.Errorf("result of %s = %+v, want %q from a reconnected session", id, r, want)
				}
			}
		})
	}
}

func TestPolicyHidesMCPTools(t *testing.T) {
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	var deferredDefs []string
	agent := newAgent(t, s, true, scripted(t,
		func(t *testing.T, in *runtime.PlanInput) model.Message {
			defs, err := in.Agent.DeferredToolDefinitions()
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range defs {
				deferredDefs = append(deferredDefs, d.Name)
			}
			return model.AssistantMessage(
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "always fails"}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Names: []string{"fx_fail", "fx_echo"}}),
			)
		},
		func(t *testing.T, in *runtime.PlanInput) model.Message {
			return calls(call("c1", "fx_fail", `{}`), call("c2", "fxd_fail", `{}`))
		},
	))
	out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("fail")},
		runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"fx.fail", "fxd.fail"}}))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if slices.Contains(deferredDefs, "fx_fail") || !slices.Contains(deferredDefs, "fx_echo") {
		t.Errorf("deferred definitions %v: want fx_echo and never fx_fail", deferredDefs)
	}
	if d := discovered(out.Messages); slices.Contains(d, "fx_fail") || !slices.Contains(d, "fx_echo") {
		t.Errorf("discovery returned %v: want fx_echo and never fx_fail", d)
	}
	for _, id := range []string{"c1", "c2"} {
		if r := results(out)[id]; !r.IsError || !strings.Contains(r.Content, "not available") {
			t.Errorf("result of hidden tool call %s = %+v, want not available", id, r)
		}
	}
	if n := f.calls.Load(); n != 0 {
		t.Errorf("the server received %d calls, want none", n)
	}
}

func TestOversizedDynamicSourceFailsTheStep(t *testing.T) {
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	rt := runtime.New()
	if _, err := mcp.RegisterSource(rt, s, "fx"); err != nil {
		t.Fatal(err)
	}
	// The second session reads the same server under a tool limit.
	small := connect(t, "small", mcp.InMemory(f.server), mcp.WithLimits(mcp.Limits{MaxTools: 3}))
	if _, err := mcp.RegisterSource(rt, small, "fx_small"); err != nil {
		t.Fatal(err)
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:       "assistant",
		Registries: []runtime.RegistrySource{{Registry: "fixture", Toolset: "fx", Deferred: true}, {Registry: "small", Toolset: "fx_small", Deferred: true}},
		Planner:    scripted(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.Client("assistant").Run(context.Background(), []model.Message{model.UserMessage("go")})
	var le *mcp.LimitError
	if !errors.Is(err, runtime.ErrCatalog) || !errors.As(err, &le) || le.Server != "small" || le.What != "tools" || le.Limit != 3 {
		t.Fatalf("Run error = %v, want the step to fail on server small's tool limit", err)
	}
}

// TestCallsRecordTheirMCPServer checks that a call of a declared MCP tool
// and a call of a dynamic source's tool are both recorded as MCP calls
// naming the server, the dynamic one with the list it was admitted under,
// and that both replay from their records.
func TestCallsRecordTheirMCPServer(t *testing.T) {
	ctx := context.Background()
	s := connect(t, "fixture", mcp.InMemory(newFixture(fixtureOptions{}).server))
	rt := runtime.New()
	if err := mcp.RegisterToolset(ctx, rt, s, mcp.DeclaredToolset{Schema: declaredFixture}); err != nil {
		t.Fatalf("RegisterToolset: %v", err)
	}
	if _, err := mcp.RegisterSource(rt, s, "fx"); err != nil {
		t.Fatalf("RegisterSource: %v", err)
	}
	reg := runtime.AgentRegistration{
		Name:       "assistant",
		Immediate:  []tools.Ident{"fxd.add"},
		Registries: []runtime.RegistrySource{{Registry: "fixture", Toolset: "fx"}},
		Planner: scripted(t, func(*testing.T, *runtime.PlanInput) model.Message {
			return calls(call("declared", "fxd_add", `{"a":1,"b":2}`), call("dynamic", "fx_add", `{"a":3,"b":4}`))
		}),
	}
	if err := rt.RegisterAgent(ctx, reg); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("assistant").Run(ctx, []model.Message{model.UserMessage("add")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(out.Calls) != 2 {
		t.Fatalf("%d calls recorded, want 2", len(out.Calls))
	}
	byID := map[string]runtime.CallRecord{}
	for _, c := range out.Calls {
		byID[c.CallID] = c
	}
	if src := byID["declared"].Source; src != (runtime.ToolSource{Kind: runtime.SourceMCP, Server: "fixture", Toolset: "fxd"}) {
		t.Errorf("declared call recorded source %+v, want mcp server fixture, toolset fxd", src)
	}
	dyn := byID["dynamic"].Source
	if dyn.Kind != runtime.SourceMCP || dyn.Server != "fixture" || dyn.Registry != "fixture" || dyn.Toolset != "fx" || dyn.Token == "" || dyn.Fingerprint == "" {
		t.Errorf("dynamic call recorded source %+v, want mcp server fixture, toolset fx, with the list's token", dyn)
	}
	for id, want := range map[string]string{"declared": `{"sum":3}`, "dynamic": `{"sum":7}`} {
		res, err := rt.Replay(ctx, out.RunID, byID[id])
		if err != nil || res.IsError || res.Content != want {
			t.Errorf("replay of %s = %+v, %v; want %s", id, res, err, want)
		}
	}

	// A runtime where the declared toolset is no longer bound to the
	// server refuses to replay its call.
	state, err := rt.LoadRun(ctx, out.RunID)
	if err != nil {
		t.Fatal(err)
	}
	other := runtime.New()
	specs := make([]tools.ToolSpec, len(declaredFixture.Tools))
	for i := range declaredFixture.Tools {
		spec, err := contract.Compile(&declaredFixture.Tools[i])
		if err != nil {
			t.Fatal(err)
		}
		specs[i] = *spec
	}
	err = other.RegisterToolset(runtime.ToolsetRegistration{Schema: declaredFixture, Specs: specs,
		Executor: runtime.ToolExecutorFunc(func(context.Context, *runtime.ToolInvocation) (any, error) { return "local", nil })})
	if err != nil {
		t.Fatal(err)
	}
	reg.Registries = nil
	if err := other.RegisterAgent(ctx, reg); err != nil {
		t.Fatal(err)
	}
	if err := other.ImportRun(ctx, state); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Replay(ctx, out.RunID, byID["declared"]); !errors.Is(err, runtime.ErrReplayRefused) {
		t.Errorf("replay on a local toolset of the same name = %v, want ErrReplayRefused", err)
	}
}

// TestCollidingToolIsDropped: a server listing a tool whose model-facing
// name another source's tool has (fx_repo's "list" and fx's "repo/list"
// are both fx_repo_list) costs that one tool, recorded with its server and
// tool, never the agent's step: the other tools of both servers stay
// found and callable.
func TestCollidingToolIsDropped(t *testing.T) {
	var logs bytes.Buffer
	rt := runtime.New(runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	first := connect(t, "fixture", mcp.InMemory(newFixture(fixtureOptions{}).server))
	if _, err := mcp.RegisterSource(rt, first, "fx"); err != nil {
		t.Fatal(err)
	}
	colliding := newFixture(fixtureOptions{extraTool: &sdk.Tool{Name: "list", InputSchema: json.RawMessage(noInput)}})
	second := connect(t, "other", mcp.InMemory(colliding.server))
	if _, err := mcp.RegisterSource(rt, second, "fx_repo"); err != nil {
		t.Fatal(err)
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:        "assistant",
		Description: "An agent.",
		Registries: []runtime.RegistrySource{
			{Registry: "fixture", Toolset: "fx", Deferred: true},
			{Registry: "other", Toolset: "fx_repo", Deferred: true},
		},
		Planner: scripted(t,
			func(t *testing.T, in *runtime.PlanInput) model.Message {
				return model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"fx_repo_list", "fx_repo_add"}}))
			},
			func(t *testing.T, in *runtime.PlanInput) model.Message {
				return calls(call("c1", "fx_repo_list", `{}`), call("c2", "fx_repo_add", `{"a":1,"b":2}`))
			},
		),
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("assistant").Run(context.Background(), []model.Message{model.UserMessage("list")})
	if err != nil {
		t.Fatalf("Run: %v, want the colliding tool dropped and the run going on", err)
	}
	res := results(out)
	if r := res["c1"]; r.IsError || r.Content != "alpha\nbeta" {
		t.Errorf("fx_repo_list = %+v, want fx's repo/list (the source read first keeps the name)", r)
	}
	if r := res["c2"]; r.IsError || r.Content != `{"sum":3}` {
		t.Errorf("fx_repo_add = %+v, want the other server's add", r)
	}
	for _, want := range []string{"MCP tool left out of the catalog", "server=other", "tool=fx_repo.list", `\"fx.repo_list\"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log does not record %s:\n%s", want, logs.String())
		}
	}
}
