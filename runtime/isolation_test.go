package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// perRunPlanner is a Planner test double: each run discovers the tool its
// "tool" label names, calls it, and finishes. It records what every step
// advertised, by run.
type perRunPlanner struct {
	mu         sync.Mutex
	advertised map[string][][]string
}

func (p *perRunPlanner) Plan(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
	var names []string
	for _, d := range in.Agent.AdvertisedToolDefinitions() {
		names = append(names, d.Name)
	}
	p.mu.Lock()
	p.advertised[in.Agent.RunID()] = append(p.advertised[in.Agent.RunID()], names)
	p.mu.Unlock()
	tool := in.Agent.Labels()["tool"]
	var parts []model.Part
	switch in.Agent.Step() {
	case 1:
		parts = []model.Part{searchPart("d", "", tool)}
	case 2:
		parts = []model.Part{callPart("c", tool, `{"id":"`+in.Agent.RunID()+`"}`)}
	default:
		parts = []model.Part{model.TextPart("done")}
	}
	return model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{})
}

func TestConcurrentRunsAreIsolated(t *testing.T) {
	p := &perRunPlanner{advertised: make(map[string][][]string)}
	rt, exec := newRecordsRuntime(t, newScriptedClient(), func(r *runtime.AgentRegistration) { r.Planner = p })
	deferred := []string{"records_search", "records_analyze", "records_delete"}
	const runs = 24
	var wg sync.WaitGroup
	errs := make([]error, runs)
	outs := make([]*runtime.RunOutput, runs)
	for i := range runs {
		wg.Go(func() {
			tool := deferred[i%len(deferred)]
			outs[i], errs[i] = rt.Client("assistant").Run(context.Background(), userSays("go"),
				runtime.WithRunID(fmt.Sprintf("run-%02d", i)), runtime.WithLabels(map[string]string{"tool": tool}))
		})
	}
	wg.Wait()
	for i := range runs {
		if errs[i] != nil {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		tool := deferred[i%len(deferred)]
		id := fmt.Sprintf("run-%02d", i)
		want := [][]string{
			{"records_lookup", "tool_search"},
			{"records_lookup", "tool_search", tool},
			{"records_lookup", "tool_search", tool},
		}
		if diff := cmp.Diff(want, p.advertised[id]); diff != "" {
			t.Errorf("run %s advertised (-want +got):\n%s", id, diff)
		}
		res := toolResults(outs[i].Messages)["c"]
		if res.IsError || !strings.Contains(res.Content, id) {
			t.Errorf("run %s result %+v", id, res)
		}
	}
	if exec.count() != runs {
		t.Errorf("%d executions, want %d", exec.count(), runs)
	}
}

func TestAgentAsTool(t *testing.T) {
	rt, _ := newRecordsRuntime(t, newScriptedClient(
		respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)),
		final(t, "Record 7 belongs to Ada."),
	), func(r *runtime.AgentRegistration) { r.Name = "researcher" })
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the research agent"}); err != nil {
		t.Fatal(err)
	}
	parent := newScriptedClient(
		respond(t, searchPart("d1", "", "experts_research")),
		respond(t, callPart("p1", "experts_research", `{"request":"Who owns record 7?"}`)),
		final(t, "Ada owns it."),
	)
	reg := runtime.AgentRegistration{Name: "lead", Deferred: []tools.Ident{"experts.research"}, Planner: plannerFor(parent)}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("lead").Run(context.Background(), userSays("Who owns record 7?"), runtime.WithRunID("lead-1"),
		runtime.WithLabels(map[string]string{"team": "a"}))
	if err != nil {
		t.Fatal(err)
	}
	res := toolResults(out.Messages)["p1"]
	if res.IsError || res.Content != "Record 7 belongs to Ada." {
		t.Fatalf("agent tool result %+v", res)
	}
	if len(out.Calls) != 1 || out.Calls[0].Source.Kind != runtime.SourceAgent || out.Calls[0].ChildRunID == "" {
		t.Fatalf("records %+v", out.Calls)
	}
	child, err := rt.LoadRun(context.Background(), out.Calls[0].ChildRunID)
	if err != nil {
		t.Fatal(err)
	}
	if child.ParentID != "lead-1" || child.Agent != "researcher" || child.Labels["team"] != "a" || child.Stop != runtime.StopCompleted {
		t.Errorf("child run %+v", child)
	}
	if len(child.Calls) != 1 || child.Calls[0].Tool != "records.lookup" {
		t.Errorf("child calls %+v", child.Calls)
	}
}

func TestHistoryStoredReloadedAndContinued(t *testing.T) {
	first := newScriptedClient(
		respond(t, searchPart("d1", "", "records_analyze")),
		final(t, "Found the analysis tool."),
	)
	rt, _ := newRecordsRuntime(t, first, nil)
	out, err := rt.Client("assistant").Run(context.Background(), userSays("find analysis"), runtime.WithRunID("r1"),
		runtime.WithLabels(map[string]string{"tier": "pro"}))
	if err != nil {
		t.Fatal(err)
	}
	state, err := rt.LoadRun(context.Background(), out.RunID)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}

	var reloaded runtime.RunState
	if err := json.Unmarshal(stored, &reloaded); err != nil {
		t.Fatal(err)
	}
	second := newScriptedClient(
		respond(t, callPart("c1", "records_analyze", `{"id":"9"}`)),
		final(t, "Analyzed."),
	)
	rt2, exec := newRecordsRuntime(t, second, nil)
	if err := rt2.ImportRun(context.Background(), &reloaded); err != nil {
		t.Fatal(err)
	}
	out2, err := rt2.Client("assistant").Continue(context.Background(), "r1", userSays("now analyze record 9"))
	if err != nil {
		t.Fatal(err)
	}
	if got := second.requestTools()[0]; !slices.Equal(got, []string{"records_lookup", "tool_search", "records_analyze"}) {
		t.Errorf("continued run declares %v, want the discovered tool kept", got)
	}
	if exec.count() != 1 || toolResults(out2.Messages)["c1"].IsError {
		t.Errorf("discovered tool not callable after reload: %+v", toolResults(out2.Messages)["c1"])
	}
	final, err := rt2.LoadRun(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	if final.Steps != 4 || len(final.Calls) != 1 || final.Labels["tier"] != "pro" || len(final.Messages) != len(out2.Messages) {
		t.Errorf("continued run recorded %d steps, %d calls, labels %v, %d messages", final.Steps, len(final.Calls), final.Labels, len(final.Messages))
	}
	if _, err := rt2.Client("assistant").Continue(context.Background(), "missing", userSays("x")); err == nil {
		t.Error("continuing an unknown run succeeded")
	}
}

func TestImportRefusesUnansweredCalls(t *testing.T) {
	rt := runtime.New()
	state := &runtime.RunState{ID: "r", Agent: "a", Messages: []model.Message{
		model.UserMessage("hi"),
		model.AssistantMessage(callPart("c1", "x_y", `{}`)),
	}}
	if err := rt.ImportRun(context.Background(), state); !errors.Is(err, runtime.ErrInvalidInput) || !strings.Contains(err.Error(), `"c1"`) {
		t.Fatalf("error %v, want the unanswered call named", err)
	}
}

func TestImportRunChecksTheRecordedError(t *testing.T) {
	for _, tc := range []struct {
		status runtime.RunStatus
		ok     bool
	}{{runtime.RunFailed, true}, {runtime.RunStopped, false}, {runtime.RunActive, false}, {"", false}} {
		t.Run(string(tc.status), func(t *testing.T) {
			state := &runtime.RunState{ID: "r", Agent: "a", Messages: userSays("hi"), Status: tc.status, Error: "planner failed"}
			err := runtime.New().ImportRun(context.Background(), state)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, runtime.ErrInvalidInput)) {
				t.Errorf("ImportRun of an error with status %q = %v, want accepted %v", tc.status, err, tc.ok)
			}
		})
	}
}

func TestRunRecordsWhyItFailedUntilContinued(t *testing.T) {
	fail := true
	p := runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
		if fail {
			return nil, errors.New("provider answered 500")
		}
		return model.NewResponse(model.AssistantMessage(model.TextPart("done")), model.FinishStop, model.Usage{})
	})
	rt, _ := newRecordsRuntime(t, newScriptedClient(), func(r *runtime.AgentRegistration) { r.Planner = p })
	client := rt.Client("assistant")
	if _, err := client.Run(context.Background(), userSays("hi"), runtime.WithRunID("r")); !errors.Is(err, runtime.ErrPlanner) {
		t.Fatalf("run: %v, want ErrPlanner", err)
	}
	state, err := rt.LoadRun(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	if state.Status != runtime.RunFailed || !strings.Contains(state.Error, "provider answered 500") {
		t.Errorf("failed run recorded %s with error %q", state.Status, state.Error)
	}
	fail = false
	if _, err := client.Continue(context.Background(), "r", userSays("again")); err != nil {
		t.Fatal(err)
	}
	if state, err = rt.LoadRun(context.Background(), "r"); err != nil || state.Status != runtime.RunStopped || state.Error != "" {
		t.Errorf("continued run recorded %s with error %q (%v), want stopped without one", state.Status, state.Error, err)
	}
}

func TestChildRunKeepsParentPolicy(t *testing.T) {
	rt, exec := newRecordsRuntime(t, newScriptedClient(
		respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)),
		final(t, "Could not look it up."),
	), func(r *runtime.AgentRegistration) { r.Name = "researcher" })
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the research agent"}); err != nil {
		t.Fatal(err)
	}
	parent := newScriptedClient(
		respond(t, callPart("p1", "experts_research", `{"request":"Look up record 7"}`)),
		final(t, "done"),
	)
	reg := runtime.AgentRegistration{Name: "lead", Immediate: []tools.Ident{"experts.research"}, Planner: plannerFor(parent)}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("lead").Run(context.Background(), userSays("go"),
		runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"records.lookup"}}))
	if err != nil {
		t.Fatal(err)
	}
	if exec.count() != 0 {
		t.Fatalf("the child run executed a tool the parent's policy denies")
	}
	child, err := rt.LoadRun(context.Background(), out.Calls[0].ChildRunID)
	if err != nil {
		t.Fatal(err)
	}
	if res := toolResults(child.Messages)["c1"]; !res.IsError {
		t.Errorf("child call result %+v, want a refusal", res)
	}
}

func TestContinuedRunUnderNarrowerPolicy(t *testing.T) {
	first := newScriptedClient(respond(t, searchPart("d1", "", "records_analyze")), final(t, "found"))
	rt, exec := newRecordsRuntime(t, first, nil)
	out, err := rt.Client("assistant").Run(context.Background(), userSays("find"))
	if err != nil {
		t.Fatal(err)
	}
	second := newScriptedClient(respond(t, callPart("c1", "records_analyze", `{"id":"1"}`)), final(t, "done"))
	rt2, exec2 := newRecordsRuntime(t, second, nil)
	state, err := rt.LoadRun(context.Background(), out.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt2.ImportRun(context.Background(), state); err != nil {
		t.Fatal(err)
	}
	out2, err := rt2.Client("assistant").Continue(context.Background(), out.RunID, userSays("analyze"),
		runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"records.analyze"}}))
	if err != nil {
		t.Fatal(err)
	}
	if got := second.requestTools()[0]; !slices.Equal(got, []string{"records_lookup", "tool_search"}) {
		t.Errorf("declares %v; a discovered tool the policy now denies stays undeclared", got)
	}
	if res := toolResults(out2.Messages)["c1"]; !res.IsError || exec.count()+exec2.count() != 0 {
		t.Errorf("denied discovered tool: result %+v, %d executions", res, exec.count()+exec2.count())
	}
}

func TestOneInvocationOfARunAtATime(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	p := runtime.PlannerFunc(func(ctx context.Context, in *runtime.PlanInput) (*model.Response, error) {
		if in.Agent.Step() == 2 {
			close(entered)
			<-release
		}
		return model.NewResponse(model.AssistantMessage(model.TextPart("done")), model.FinishStop, model.Usage{})
	})
	rt, _ := newRecordsRuntime(t, newScriptedClient(), func(r *runtime.AgentRegistration) { r.Planner = p })
	client := rt.Client("assistant")
	if _, err := client.Run(context.Background(), userSays("one"), runtime.WithRunID("r")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := client.Continue(context.Background(), "r", userSays("two"), runtime.WithLabels(map[string]string{"tier": "pro"}))
		done <- err
	}()
	<-entered
	if _, err := client.Continue(context.Background(), "r", userSays("three")); !errors.Is(err, runtime.ErrRunActive) {
		t.Errorf("second invocation: %v, want ErrRunActive", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	state, err := rt.LoadRun(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	if state.Status != runtime.RunStopped || state.Labels["tier"] != "pro" || len(state.Messages) != 4 {
		t.Errorf("recorded %s, labels %v, %d messages", state.Status, state.Labels, len(state.Messages))
	}
}
