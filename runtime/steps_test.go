package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// dataEngine is a test double of a durable engine: a Launcher that runs
// each invocation with Drive and every step from its request only, as a
// worker would: each request and result goes through JSON, planning steps
// run with Runtime.PlanStep, calls with Runtime.ExecuteCall, child runs
// with Drive. It counts the steps it ran.
type dataEngine struct {
	*runtime.MemoryEngine
	rt *runtime.Runtime

	mu           sync.Mutex
	plans, calls int
	children     int
}

func (e *dataEngine) Launch(ctx context.Context, spec *runtime.RunSpec) (*runtime.RunOutput, error) {
	spec = roundTrip(spec)
	if !spec.Create {
		if _, err := e.ResumeRun(ctx, spec.State.ID); err != nil {
			return nil, err
		}
	}
	return e.rt.Drive(ctx, &dataSteps{e: e, spec: spec}, spec)
}

// dataSteps are the steps of one invocation run by a dataEngine.
type dataSteps struct {
	e    *dataEngine
	spec *runtime.RunSpec
}

func (s *dataSteps) CreateRun(ctx context.Context, state *runtime.RunState) error {
	return s.e.CreateRun(ctx, roundTrip(state))
}

func (s *dataSteps) AppendRun(ctx context.Context, id string, u runtime.RunUpdate) error {
	return s.e.AppendRun(ctx, id, *roundTrip(&u))
}

func (s *dataSteps) Bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(d)
	if !s.spec.Deadline.IsZero() && s.spec.Deadline.Before(deadline) {
		deadline = s.spec.Deadline
	}
	return runtime.ClockBound(ctx, deadline, time.Now), func() {}
}

func (s *dataSteps) PlanStep(ctx context.Context, req *runtime.StepRequest, _ func(context.Context) (*runtime.StepPlan, error)) (*runtime.StepPlan, error) {
	s.e.mu.Lock()
	s.e.plans++
	s.e.mu.Unlock()
	plan, err := s.e.rt.PlanStep(ctx, roundTrip(req))
	if err != nil {
		return nil, err
	}
	return roundTrip(plan), nil
}

func (s *dataSteps) ExecuteCall(ctx context.Context, req *runtime.CallRequest, _ func(context.Context) (*runtime.CallResult, error)) (*runtime.CallResult, error) {
	req = roundTrip(req)
	s.e.mu.Lock()
	s.e.calls++
	s.e.mu.Unlock()
	if req.Child != nil {
		if res, err := s.e.rt.ConfirmCall(ctx, req); err != nil || res != nil {
			return res, err
		}
		s.e.mu.Lock()
		s.e.children++
		s.e.mu.Unlock()
		out, err := s.e.rt.Drive(ctx, &dataSteps{e: s.e, spec: req.Child}, req.Child)
		return roundTrip(runtime.AgentCallResult(req, out, err)), nil
	}
	res, err := s.e.rt.ExecuteCall(ctx, req)
	if err != nil {
		return nil, err
	}
	return roundTrip(res), nil
}

// roundTrip returns v as JSON decodes it: what a step run elsewhere sees.
func roundTrip[T any](v *T) *T {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}

// drivenRuntime returns a runtime recording in engine (nil for the default)
// with the records toolset, the agent "assistant" and, as in
// childRuntime, the agent tool "experts.research" running "researcher" and
// the agent "lead" using it.
func drivenRuntime(t *testing.T, engine *dataEngine, client, child, parent model.Client, caps runtime.Caps) (*runtime.Runtime, *recordingExecutor) {
	t.Helper()
	var opts []runtime.Option
	if engine != nil {
		opts = append(opts, runtime.WithEngine(engine))
	}
	rt := runtime.New(opts...)
	if engine != nil {
		engine.rt = rt
	}
	exec := &recordingExecutor{}
	registerToolset(t, rt, "records", exec, recordsTools...)
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the research agent"}); err != nil {
		t.Fatal(err)
	}
	deferred := []tools.Ident{"records.search", "records.analyze", "records.delete", "records.export"}
	for _, reg := range []runtime.AgentRegistration{
		{Name: "assistant", Immediate: []tools.Ident{"records.lookup"}, Deferred: deferred, Planner: plannerFor(client), Caps: caps},
		{Name: "researcher", Immediate: []tools.Ident{"records.lookup", "experts.research"}, Deferred: deferred, Planner: plannerFor(child)},
		{Name: "lead", Immediate: []tools.Ident{"experts.research"}, Planner: plannerFor(parent), Caps: caps},
	} {
		if err := rt.RegisterAgent(context.Background(), reg); err != nil {
			t.Fatal(err)
		}
	}
	return rt, exec
}

// TestDrivenLoopMatchesInMemory runs each scenario on the in-memory engine
// and on a durable engine's data path, and checks both give the same
// output, record the same runs and execute the same calls.
func TestDrivenLoopMatchesInMemory(t *testing.T) {
	for _, tc := range []struct {
		name   string
		agent  string
		caps   runtime.Caps
		script func(t *testing.T) (client, child, parent []*model.Response)
		stop   runtime.StopReason
		plans  int // planning steps the durable path ran
		calls  int
	}{
		{name: "discovery then calls", agent: "assistant", stop: runtime.StopCompleted, plans: 3, calls: 2,
			script: func(t *testing.T) (a, b, c []*model.Response) {
				return []*model.Response{
					respond(t, searchPart("d1", "", "records_search")),
					respond(t, callPart("c1", "records_lookup", `{"id":"7"}`), callPart("c2", "records_search", `{"id":"7"}`),
						callPart("c3", "records_delete", `{"id":"7"}`), callPart("c4", "records_nope", `{}`)),
					final(t, "done"),
				}, nil, nil
			}},
		{name: "tool call cap", agent: "assistant", caps: runtime.Caps{MaxToolCalls: 1}, stop: runtime.StopMaxToolCalls, plans: 1, calls: 1,
			script: func(t *testing.T) (a, b, c []*model.Response) {
				return []*model.Response{respond(t, callPart("c1", "records_lookup", `{"id":"1"}`), callPart("c2", "records_lookup", `{"id":"2"}`))}, nil, nil
			}},
		{name: "step cap", agent: "assistant", caps: runtime.Caps{MaxSteps: 2}, stop: runtime.StopMaxSteps, plans: 2, calls: 2,
			script: func(t *testing.T) (a, b, c []*model.Response) {
				return []*model.Response{respond(t, callPart("c1", "records_lookup", `{"id":"1"}`)), respond(t, callPart("c2", "records_lookup", `{"id":"2"}`))}, nil, nil
			}},
		{name: "child run", agent: "lead", stop: runtime.StopCompleted, plans: 4, calls: 2,
			script: func(t *testing.T) (a, b, c []*model.Response) {
				return nil,
					[]*model.Response{respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)), final(t, "record 7 is fine")},
					[]*model.Response{respond(t, callPart("p1", "experts_research", `{"request":"Check record 7"}`)), final(t, "ok")}
			}},
		{name: "depth cap", agent: "lead", caps: runtime.Caps{MaxDepth: 1}, stop: runtime.StopCompleted, plans: 3, calls: 1,
			script: func(t *testing.T) (a, b, c []*model.Response) {
				return nil,
					[]*model.Response{respond(t, callPart("c1", "experts_research", `{"request":"deeper"}`))},
					[]*model.Response{respond(t, callPart("p1", "experts_research", `{"request":"Check"}`)), final(t, "ok")}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			type result struct {
				out   *runtime.RunOutput
				err   error
				state *runtime.RunState
				exec  []string
			}
			runOn := func(engine *dataEngine) result {
				a, b, c := tc.script(t)
				rt, exec := drivenRuntime(t, engine, newScriptedClient(a...), newScriptedClient(b...), newScriptedClient(c...), tc.caps)
				out, err := rt.Client(tc.agent).Run(context.Background(), userSays("go"), runtime.WithRunID("r1"))
				state, lerr := rt.LoadRun(context.Background(), "r1")
				if lerr != nil {
					t.Fatal(lerr)
				}
				var names []string
				for _, inv := range exec.calls {
					names = append(names, string(inv.Tool)+string(inv.Arguments))
				}
				return result{out: out, err: err, state: state, exec: names}
			}
			mem := runOn(nil)
			engine := &dataEngine{MemoryEngine: runtime.NewMemoryEngine()}
			driven := runOn(engine)
			if mem.out == nil || driven.out == nil {
				t.Fatalf("outputs: in memory %v (%v), driven %v (%v)", mem.out, mem.err, driven.out, driven.err)
			}
			if mem.out.Stop != tc.stop {
				t.Errorf("in memory the run stops with %q (%v), want %q", mem.out.Stop, mem.err, tc.stop)
			}
			if diff := cmp.Diff(mem.out, driven.out); diff != "" {
				t.Errorf("driven output differs from the in-memory one (-memory +driven):\n%s", diff)
			}
			if diff := cmp.Diff(mem.state, driven.state); diff != "" {
				t.Errorf("driven record differs (-memory +driven):\n%s", diff)
			}
			if (mem.err == nil) != (driven.err == nil) || errors.Is(mem.err, runtime.ErrCapExceeded) != errors.Is(driven.err, runtime.ErrCapExceeded) {
				t.Errorf("errors: in memory %v, driven %v", mem.err, driven.err)
			}
			if diff := cmp.Diff(mem.exec, driven.exec); diff != "" {
				t.Errorf("executions differ (-memory +driven):\n%s", diff)
			}
			if engine.plans != tc.plans || engine.calls != tc.calls {
				t.Errorf("the durable path ran %d planning steps and %d calls, want %d and %d", engine.plans, engine.calls, tc.plans, tc.calls)
			}
		})
	}
}

// TestDrivenContinueHoldsOneInvocation checks that a continued run goes
// through the Launcher, which refuses a second active invocation.
func TestDrivenContinueHoldsOneInvocation(t *testing.T) {
	engine := &dataEngine{MemoryEngine: runtime.NewMemoryEngine()}
	client := newScriptedClient(final(t, "one"), final(t, "two"))
	rt, _ := drivenRuntime(t, engine, client, newScriptedClient(), newScriptedClient(), runtime.Caps{})
	ctx := context.Background()
	if _, err := rt.Client("assistant").Run(ctx, userSays("go"), runtime.WithRunID("r1")); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("assistant").Continue(ctx, "r1", userSays("again"))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Final.Text(); got != "two" || len(out.Messages) != 4 {
		t.Errorf("continued run ends with %q after %d messages, want \"two\" after 4", got, len(out.Messages))
	}
	if _, err := engine.ResumeRun(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Client("assistant").Continue(ctx, "r1", userSays("more")); !errors.Is(err, runtime.ErrRunActive) {
		t.Errorf("continuing an active run: %v, want ErrRunActive", err)
	}
}

// TestClockBoundEndsWithTimeBudget checks that a run driven on an engine's
// own clock stops with StopTimeBudget when that clock passes its deadline.
func TestClockBoundEndsWithTimeBudget(t *testing.T) {
	ctx := runtime.ClockBound(context.Background(), time.Unix(100, 0), func() time.Time { return time.Unix(100, 0) })
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("expired clock context: %v", ctx.Err())
	}
	live := runtime.ClockBound(context.Background(), time.Unix(100, 0), func() time.Time { return time.Unix(99, 0) })
	if live.Err() != nil {
		t.Fatalf("live clock context: %v", live.Err())
	}
}
