package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// childRuntime returns a runtime with the records toolset, the agent
// "researcher" (records.lookup immediate, records.search and records.delete
// deferred) planned over child, the agent tool "experts.research" running
// it, and the agent "lead" that uses that tool, planned over parent.
func childRuntime(t *testing.T, child, parent model.Client, childPolicy, leadPolicy runtime.Policy) (*runtime.Runtime, *recordingExecutor) {
	t.Helper()
	rt, exec := newRecordsRuntime(t, child, func(r *runtime.AgentRegistration) {
		r.Name = "researcher"
		r.Deferred = []tools.Ident{"records.search", "records.delete"}
		r.Policy = childPolicy
	})
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the research agent"}); err != nil {
		t.Fatal(err)
	}
	lead := runtime.AgentRegistration{Name: "lead", Immediate: []tools.Ident{"experts.research"}, Planner: plannerFor(parent), Policy: leadPolicy}
	if err := rt.RegisterAgent(context.Background(), lead); err != nil {
		t.Fatal(err)
	}
	return rt, exec
}

func TestChildRunUnderIntersectionOfPolicies(t *testing.T) {
	deleteTool := []tools.Ident{"records.delete"}
	for _, tc := range []struct {
		name               string
		child, lead, run   runtime.Policy
		labels             map[string]string
		denied             []string // tools the child run may not use
		wantLeadToolResult bool
	}{
		{name: "no restriction"},
		{name: "the child agent's policy", child: runtime.Policy{DenyTools: deleteTool}, denied: []string{"records_delete"}},
		{name: "the parent run's policy", run: runtime.Policy{DenyTools: deleteTool}, denied: []string{"records_delete"}},
		{name: "the parent agent's deny list", lead: runtime.Policy{DenyTools: deleteTool}, denied: []string{"records_delete"}},
		{name: "the parent agent's allow list",
			lead:   runtime.Policy{AllowToolsets: []string{"experts"}, AllowTools: []tools.Ident{"records.lookup"}},
			denied: []string{"records_search", "records_delete"}},
		{name: "the parent agent's required labels", labels: map[string]string{"role": "reader"},
			lead:   runtime.Policy{RequiredLabels: map[tools.Ident]map[string]string{"records.delete": {"role": "admin"}}},
			denied: []string{"records_delete"}},
		{name: "the parent agent's toolset denial", lead: runtime.Policy{DenyToolsets: []string{"records"}},
			denied: []string{"records_lookup", "records_search", "records_delete"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			child := newScriptedClient(
				respond(t, searchPart("d1", "", "records_search", "records_delete")),
				respond(t,
					callPart("c1", "records_lookup", `{"id":"7"}`),
					callPart("c2", "records_search", `{"id":"7"}`),
					callPart("c3", "records_delete", `{"id":"7"}`)),
				final(t, "done"),
			)
			parent := newScriptedClient(respond(t, callPart("p1", "experts_research", `{"request":"Clean up record 7"}`)), final(t, "ok"))
			rt, exec := childRuntime(t, child, parent, tc.child, tc.lead)
			out, err := rt.Client("lead").Run(context.Background(), userSays("go"),
				runtime.WithPolicy(tc.run), runtime.WithLabels(tc.labels))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Calls) != 1 {
				t.Fatalf("lead records %+v, want the agent tool call", out.Calls)
			}
			state, err := rt.LoadRun(context.Background(), out.Calls[0].ChildRunID)
			if err != nil {
				t.Fatal(err)
			}
			allowed := func(names ...string) []string {
				return slices.DeleteFunc(names, func(n string) bool { return slices.Contains(tc.denied, n) })
			}
			if got, want := child.requestTools()[0], allowed("records_lookup", "tool_search"); !slices.Equal(got, want) {
				t.Errorf("child declares %v, want %v", got, want)
			}
			if got, want := snapshotNames(discoveryResults(state.Messages)["d1"]), allowed("records_search", "records_delete"); !slices.Equal(got, want) {
				t.Errorf("child found %v, want %v", got, want)
			}
			var ran []string
			for _, inv := range exec.calls {
				ran = append(ran, strings.ReplaceAll(string(inv.Tool), ".", "_"))
			}
			if want := allowed("records_lookup", "records_search", "records_delete"); !slices.Equal(ran, want) {
				t.Errorf("child executed %v, want %v", ran, want)
			}
			results := toolResults(state.Messages)
			for id, name := range map[string]string{"c1": "records_lookup", "c2": "records_search", "c3": "records_delete"} {
				if refused := results[id].IsError; refused != slices.Contains(tc.denied, name) {
					t.Errorf("child call of %s answered %+v", name, results[id])
				}
			}
		})
	}
}

func TestChildRunFailureKeepsItsDetailsFromTheModel(t *testing.T) {
	const secretURL = "https://llm.internal.example/v1/messages?key=s3cret"
	for _, tc := range []struct {
		name   string
		mutate func(*runtime.AgentRegistration)
		hidden []string // what the parent's model must not read
	}{
		{"a catalog error naming a tool the child's policy hides", func(r *runtime.AgentRegistration) {
			r.Immediate = append(r.Immediate, "records.vault_open")
			r.Policy = runtime.Policy{DenyTools: []tools.Ident{"records.vault_open"}}
		}, []string{"vault"}},
		{"a planner error naming an internal URL", func(r *runtime.AgentRegistration) {
			r.Planner = runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
				return nil, errors.New(`Post "` + secretURL + `": connection refused`)
			})
		}, []string{"internal.example", "s3cret"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, _ := newRecordsRuntime(t, newScriptedClient(), func(r *runtime.AgentRegistration) {
				r.Name = "researcher"
				tc.mutate(r)
			})
			if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the research agent"}); err != nil {
				t.Fatal(err)
			}
			parent := newScriptedClient(respond(t, callPart("p1", "experts_research", `{"request":"Look up record 7"}`)), final(t, "ok"))
			lead := runtime.AgentRegistration{Name: "lead", Immediate: []tools.Ident{"experts.research"}, Planner: plannerFor(parent)}
			if err := rt.RegisterAgent(context.Background(), lead); err != nil {
				t.Fatal(err)
			}
			out, err := rt.Client("lead").Run(context.Background(), userSays("go"))
			if err != nil {
				t.Fatal(err)
			}
			res := toolResults(out.Messages)["p1"]
			if !res.IsError || !strings.Contains(res.Content, `agent "researcher"`) {
				t.Errorf("agent tool result %+v, want an error naming the agent", res)
			}
			// The parent's model reads the result in the request after it.
			sent := parent.requests[len(parent.requests)-1]
			for _, m := range sent.Messages {
				for _, p := range m.Parts {
					if p.ToolResult == nil {
						continue
					}
					for _, h := range tc.hidden {
						if strings.Contains(p.ToolResult.Content, h) {
							t.Errorf("the parent's model reads %q in %q", h, p.ToolResult.Content)
						}
					}
				}
			}
			// The application finds the failure in the child run's record.
			state, err := rt.LoadRun(context.Background(), out.Calls[0].ChildRunID)
			if err != nil {
				t.Fatal(err)
			}
			if state.Status != runtime.RunFailed || !strings.Contains(state.Error, tc.hidden[0]) {
				t.Errorf("child run recorded %s with error %q, want failed with the cause", state.Status, state.Error)
			}
			if rec := out.Calls[0].Error; !strings.Contains(rec, `agent "researcher" failed before answering: `) || !strings.Contains(rec, tc.hidden[0]) {
				t.Errorf("the parent's record keeps %q, want the child's cause", rec)
			}
		})
	}
}

// pingPongRuntime returns a runtime with the agents "ping" and "pong", each
// of which uses the other as a tool: asked anything, it asks the other, then
// answers "done". Without a depth cap the two would call each other until
// the time cap.
func pingPongRuntime(t testing.TB, pingCaps, pongCaps runtime.Caps) *runtime.Runtime {
	t.Helper()
	rt := runtime.New()
	err := rt.RegisterAgentTools("agents",
		runtime.AgentTool{Tool: "ping", Agent: "ping", Description: "Ask ping"},
		runtime.AgentTool{Tool: "pong", Agent: "pong", Description: "Ask pong"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		name, other string
		caps        runtime.Caps
	}{{"ping", "pong", pingCaps}, {"pong", "ping", pongCaps}} {
		p := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
			if last := in.Messages[len(in.Messages)-1]; last.Role == model.RoleUser {
				return model.NewResponse(model.AssistantMessage(callPart("c", "agents_"+a.other, `{"request":"go on"}`)), model.FinishToolCalls, model.Usage{})
			}
			return model.NewResponse(model.AssistantMessage(model.TextPart("done")), model.FinishStop, model.Usage{})
		})
		reg := runtime.AgentRegistration{Name: a.name, Immediate: []tools.Ident{tools.Ident("agents." + a.other)}, Planner: p, Caps: a.caps}
		if err := rt.RegisterAgent(context.Background(), reg); err != nil {
			t.Fatal(err)
		}
	}
	return rt
}

func TestAgentToolsNestWithinMaxDepth(t *testing.T) {
	short := 20 * time.Second // far above what the test needs; without a depth cap it ends the runs
	for _, tc := range []struct {
		name               string
		ping, pong, runCap runtime.Caps
		want               int // child runs below the root
	}{
		{"the default depth", runtime.Caps{MaxDuration: short}, runtime.Caps{MaxDuration: short}, runtime.Caps{}, runtime.DefaultCaps.MaxDepth},
		{"the run's own cap", runtime.Caps{MaxDuration: short}, runtime.Caps{MaxDuration: short}, runtime.Caps{MaxDepth: 3}, 3},
		{"a child agent's lower cap", runtime.Caps{MaxDuration: short}, runtime.Caps{MaxDuration: short, MaxDepth: 1}, runtime.Caps{}, 2},
		{"a child agent's higher cap", runtime.Caps{MaxDuration: short, MaxDepth: 2}, runtime.Caps{MaxDuration: short, MaxDepth: 50}, runtime.Caps{}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := pingPongRuntime(t, tc.ping, tc.pong)
			out, err := rt.Client("ping").Run(context.Background(), userSays("start"), runtime.WithCaps(tc.runCap))
			if err != nil {
				t.Fatalf("root run: %v", err)
			}
			if out.Stop != runtime.StopCompleted {
				t.Errorf("root run stopped %s", out.Stop)
			}
			depth, calls, idLen := 0, out.Calls, 0
			var deepest, above *runtime.RunState
			for len(calls) > 0 {
				above = deepest
				state, err := rt.LoadRun(context.Background(), calls[0].ChildRunID)
				if err != nil {
					t.Fatal(err)
				}
				depth++
				if idLen != 0 && len(state.ID) != idLen {
					t.Errorf("child run id %q at depth %d is %d long, %d above", state.ID, depth, len(state.ID), idLen)
				}
				idLen, deepest, calls = len(state.ID), state, state.Calls
			}
			if depth != tc.want {
				t.Fatalf("child runs nest %d deep, want %d", depth, tc.want)
			}
			if deepest.Stop != runtime.StopMaxDepth || deepest.Status != runtime.RunStopped {
				t.Errorf("deepest run %s/%s, want stopped by max_depth", deepest.Status, deepest.Stop)
			}
			if res := toolResults(deepest.Messages)["c"]; !res.IsError || !strings.Contains(res.Content, "nest at most") {
				t.Errorf("deepest run's call answered %+v", res)
			}
			if res := toolResults(above.Messages)["c"]; !res.IsError || !strings.Contains(res.Content, "stopped before answering: max_depth") {
				t.Errorf("the call that started the deepest run answered %+v", res)
			}
		})
	}
}

func TestNegativeMaxDepthRefused(t *testing.T) {
	rt := pingPongRuntime(t, runtime.Caps{}, runtime.Caps{})
	if _, err := rt.Client("ping").Run(context.Background(), userSays("x"), runtime.WithCaps(runtime.Caps{MaxDepth: -1})); !errors.Is(err, runtime.ErrInvalidInput) {
		t.Errorf("negative MaxDepth: %v, want ErrInvalidInput", err)
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "deep", Planner: runtime.PlannerFunc(nil), Caps: runtime.Caps{MaxDepth: -2}})
	if !errors.Is(err, runtime.ErrInvalidRegistration) {
		t.Errorf("agent with negative MaxDepth: %v, want ErrInvalidRegistration", err)
	}
}

func TestContinuedChildRunKeepsThePoliciesAboveIt(t *testing.T) {
	child := newScriptedClient(
		respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)),
		final(t, "done"),
		respond(t, searchPart("d1", "", "records_delete")),
		respond(t, callPart("c2", "records_delete", `{"id":"7"}`)),
		final(t, "deleted"),
	)
	parent := newScriptedClient(respond(t, callPart("p1", "experts_research", `{"request":"Look up 7"}`)), final(t, "ok"))
	rt, exec := childRuntime(t, child, parent, runtime.Policy{}, runtime.Policy{DenyTools: []tools.Ident{"records.delete"}})
	out, err := rt.Client("lead").Run(context.Background(), userSays("go"))
	if err != nil {
		t.Fatal(err)
	}
	childID := out.Calls[0].ChildRunID
	// Continued by a client, the child run is still below the lead's run:
	// the lead agent's policy holds.
	again, err := rt.Client("researcher").Continue(context.Background(), childID, userSays("now delete it"))
	if err != nil {
		t.Fatal(err)
	}
	if found := snapshotNames(discoveryResults(again.Messages)["d1"]); len(found) != 0 {
		t.Errorf("continued child run found %v", found)
	}
	if res := toolResults(again.Messages)["c2"]; !res.IsError || exec.count() != 1 {
		t.Errorf("continued child run's delete answered %+v after %d executions, want refused", res, exec.count())
	}
}

func TestRunsAboveThatCannotBeKnownRefuse(t *testing.T) {
	lookup := toolsetSchema(t, "records", recordsTools[0]).Tools[0]
	sub := func(id, parent string) *runtime.RunState {
		return &runtime.RunState{ID: id, Agent: "researcher", ParentID: parent, Messages: userSays("hi"), Status: runtime.RunStopped,
			Calls: []runtime.CallRecord{{CallID: "c1", Step: 1, Name: "records_lookup", Tool: "records.lookup",
				Source: runtime.ToolSource{Kind: runtime.SourceLocal, Toolset: "records"}, Definition: lookup, Arguments: []byte(`{"id":"7"}`)}}}
	}
	for _, tc := range []struct {
		name string
		runs []*runtime.RunState
	}{
		{"a parent that is not recorded", []*runtime.RunState{sub("c", "missing")}},
		{"a run that is its own parent", []*runtime.RunState{sub("c", "c")}},
		{"runs that are each other's parents", []*runtime.RunState{sub("c", "d"), sub("d", "c")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// ImportRun takes a child run only after its parent.
			if err := runtime.New().ImportRun(context.Background(), tc.runs[0]); !errors.Is(err, runtime.ErrInvalidInput) {
				t.Errorf("ImportRun = %v, want ErrInvalidInput", err)
			}
			// An engine may hold such runs anyway: continuing or replaying
			// them fails rather than running outside the policies above.
			engine := runtime.NewMemoryEngine()
			for _, s := range tc.runs {
				if err := engine.CreateRun(context.Background(), s); err != nil {
					t.Fatal(err)
				}
			}
			rt := runtime.New(runtime.WithEngine(engine))
			exec := &recordingExecutor{}
			registerToolset(t, rt, "records", exec, recordsTools...)
			reg := runtime.AgentRegistration{Name: "researcher", Immediate: []tools.Ident{"records.lookup"}, Planner: plannerFor(newScriptedClient(final(t, "x")))}
			if err := rt.RegisterAgent(context.Background(), reg); err != nil {
				t.Fatal(err)
			}
			if _, err := rt.Client("researcher").Continue(context.Background(), "c", userSays("go on")); err == nil {
				t.Error("continued a run whose runs above are unknown")
			}
			if _, err := rt.Replay(context.Background(), "c", tc.runs[0].Calls[0]); !errors.Is(err, runtime.ErrReplayRefused) || !strings.Contains(err.Error(), "above") {
				t.Errorf("Replay = %v, want ErrReplayRefused", err)
			}
			if exec.count() != 0 {
				t.Errorf("%d executions", exec.count())
			}
		})
	}
}

// recordingSteps are Steps that run every step where the loop runs, as the
// in-memory engine's do, and note each planning step and child run they
// are given.
type recordingSteps struct {
	engine   runtime.Engine
	plans    []string // agent/step of each planning step
	children []*runtime.RunSpec
}

func (s *recordingSteps) CreateRun(ctx context.Context, state *runtime.RunState) error {
	return s.engine.CreateRun(ctx, state)
}

func (s *recordingSteps) AppendRun(ctx context.Context, id string, u runtime.RunUpdate) error {
	return s.engine.AppendRun(ctx, id, u)
}

func (s *recordingSteps) Bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

func (s *recordingSteps) PlanStep(ctx context.Context, req *runtime.StepRequest, plan func(context.Context) (*runtime.StepPlan, error)) (*runtime.StepPlan, error) {
	s.plans = append(s.plans, fmt.Sprintf("%s/%d", req.Agent, req.Step))
	return plan(ctx)
}

func (s *recordingSteps) ExecuteCall(ctx context.Context, req *runtime.CallRequest, exec func(context.Context) (*runtime.CallResult, error)) (*runtime.CallResult, error) {
	if req.Child != nil {
		s.children = append(s.children, req.Child)
	}
	return exec(ctx)
}

// TestChildRunDrivenFromItsRunSpec checks that an agent tool call run
// where the loop runs starts its child run as a durable engine does: with
// Drive, from the RunSpec of the call's request, under the same Steps.
func TestChildRunDrivenFromItsRunSpec(t *testing.T) {
	child := newScriptedClient(final(t, "child done"))
	parent := newScriptedClient(respond(t, callPart("p1", "experts_research", `{"request":"Look up record 7"}`)), final(t, "ok"))
	rt, _ := childRuntime(t, child, parent, runtime.Policy{}, runtime.Policy{})
	steps := &recordingSteps{engine: rt.Engine()}
	spec := &runtime.RunSpec{State: runtime.RunState{ID: "lead-1", Agent: "lead", Labels: map[string]string{"team": "a"}, Status: runtime.RunActive},
		Input: userSays("go"), Create: true}
	out, err := rt.Drive(context.Background(), steps, spec)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"lead/1", "researcher/1", "lead/2"}; !slices.Equal(steps.plans, want) {
		t.Errorf("planning steps through the Steps: %v, want %v", steps.plans, want)
	}
	if len(steps.children) != 1 || len(out.Calls) != 1 {
		t.Fatalf("child runs %d, calls %+v: want one of each", len(steps.children), out.Calls)
	}
	childSpec := steps.children[0]
	if childSpec.State.ID != out.Calls[0].ChildRunID || childSpec.Depth != 1 || !slices.Equal(childSpec.Above, []string{"lead"}) {
		t.Errorf("child run spec %+v, call record %+v", childSpec, out.Calls[0])
	}
	state, err := rt.LoadRun(context.Background(), childSpec.State.ID)
	if err != nil {
		t.Fatal(err)
	}
	if state.ParentID != "lead-1" || state.Labels["team"] != "a" || state.Status != runtime.RunStopped || state.Steps != 1 {
		t.Errorf("child run recorded as %+v", state)
	}
}
