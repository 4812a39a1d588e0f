package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// stepPlanner is a Planner test double: it answers step n (counted over
// the run) with script[n-1], the same in any process.
func stepPlanner(t testing.TB, script ...*model.Response) runtime.Planner {
	return runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		n := in.Agent.Step()
		if n > len(script) {
			return nil, fmt.Errorf("step planner: no response for step %d", n)
		}
		return script[n-1], nil
	})
}

func respond(t testing.TB, parts ...model.Part) *model.Response {
	t.Helper()
	r, err := model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{InputTokens: 10, OutputTokens: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func final(t testing.TB, text string) *model.Response { return respond(t, model.TextPart(text)) }

func call(id, name, args string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})
}

func search(id string, names ...string) model.Part {
	return model.DiscoveryCallPart(model.DiscoveryCall{ID: id, Names: names})
}

// callKey identifies a call across attempts: run, step, call id.
type callKey struct {
	run, call string
	step      int
}

// countingExecutor is a ToolExecutor test double: it answers with the tool
// and arguments, counts executions by call identity, and can fail the
// first attempts of a call as a worker that dies mid-call would (a panic
// fails the activity without an answer).
type countingExecutor struct {
	mu       sync.Mutex
	runs     map[callKey]int
	attempts map[callKey][]int32
	crash    func(key callKey, attempt int32) bool
	during   func(key callKey) // runs inside the activity
}

func (e *countingExecutor) Execute(ctx context.Context, inv *runtime.ToolInvocation) (any, error) {
	key := callKey{run: inv.RunID, call: inv.CallID, step: inv.Step}
	attempt := int32(1)
	if activity.IsActivity(ctx) {
		attempt = activity.GetInfo(ctx).Attempt
	}
	e.mu.Lock()
	if e.runs == nil {
		e.runs, e.attempts = map[callKey]int{}, map[callKey][]int32{}
	}
	e.runs[key]++
	e.attempts[key] = append(e.attempts[key], attempt)
	crash, during := e.crash, e.during
	e.mu.Unlock()
	if during != nil {
		during(key)
	}
	if crash != nil && crash(key, attempt) {
		panic("the worker died")
	}
	return fmt.Sprintf("%s(%s)", inv.Tool, inv.Arguments), nil
}

func (e *countingExecutor) executions() map[callKey]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[callKey]int, len(e.runs))
	for k, v := range e.runs {
		out[k] = v
	}
	return out
}

const payload = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`

// newRuntime returns a runtime recording in engine (the in-memory engine
// when nil) with the records toolset (lookup immediate; search, delete
// deferred), the agent "assistant", the agent "researcher" behind the agent
// tool "experts.research", and the agent "lead" that uses it.
func newRuntime(t testing.TB, engine runtime.Engine, exec runtime.ToolExecutor, caps runtime.Caps, assistant, researcher, lead []*model.Response) *runtime.Runtime {
	t.Helper()
	var opts []runtime.Option
	if engine != nil {
		opts = append(opts, runtime.WithEngine(engine))
	}
	rt := runtime.New(opts...)
	ts := tools.ToolsetSchema{Name: "records", Description: "records"}
	reg := runtime.ToolsetRegistration{Executor: exec}
	schema := tools.MustCompileSchema([]byte(payload))
	for _, name := range []string{"lookup", "search", "delete"} {
		id := tools.Ident("records." + name)
		ts.Tools = append(ts.Tools, tools.ToolSchema{Name: id, Description: name + " a record", Payload: json.RawMessage(payload)})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: name + " a record", Payload: tools.NewRawCodec(schema)})
	}
	reg.Schema = ts
	if err := rt.RegisterToolset(reg); err != nil {
		t.Fatal(err)
	}
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the research agent"}); err != nil {
		t.Fatal(err)
	}
	deferred := []tools.Ident{"records.search", "records.delete"}
	for _, a := range []runtime.AgentRegistration{
		{Name: "assistant", Immediate: []tools.Ident{"records.lookup"}, Deferred: deferred, Planner: stepPlanner(t, assistant...), Caps: caps},
		{Name: "researcher", Immediate: []tools.Ident{"records.lookup", "experts.research"}, Deferred: deferred, Planner: stepPlanner(t, researcher...)},
		{Name: "lead", Immediate: []tools.Ident{"experts.research"}, Planner: stepPlanner(t, lead...), Caps: caps},
	} {
		if err := rt.RegisterAgent(context.Background(), a); err != nil {
			t.Fatal(err)
		}
	}
	return rt
}

// newEnv returns a workflow test environment that logs nothing.
func newEnv() *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	return suite.NewTestWorkflowEnvironment()
}

// workflowRun is one run in the test suite's workflow environment.
type workflowRun struct {
	env        *testsuite.TestWorkflowEnvironment
	res        temporal.Result
	err        error
	activities map[string]int // completed activities by name
}

// runWorkflow runs agent's run "r1" as the engine's workflow.
func runWorkflow(t *testing.T, opts temporal.Options, rt func(runtime.Engine) *runtime.Runtime, agent string, before func(*testsuite.TestWorkflowEnvironment)) *workflowRun {
	t.Helper()
	env := newEnv()
	engine := temporal.New(nil, opts)
	r := rt(engine)
	engine.Register(env, r)
	w := &workflowRun{env: env, activities: map[string]int{}}
	var mu sync.Mutex
	env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, err error) {
		if err == nil {
			mu.Lock()
			w.activities[info.ActivityType.Name]++
			mu.Unlock()
		}
	})
	if before != nil {
		before(env)
	}
	spec := &runtime.RunSpec{
		State:  runtime.RunState{ID: "r1", Agent: agent, Status: runtime.RunActive},
		Input:  []model.Message{model.UserMessage("go")},
		Create: true,
	}
	env.ExecuteWorkflow(temporal.RunWorkflow, spec)
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete")
	}
	if w.err = env.GetWorkflowError(); w.err == nil {
		w.err = env.GetWorkflowResult(&w.res)
	}
	return w
}

// scenario is a run of one agent over scripts of the three agents.
type scenario struct {
	name                        string
	agent                       string
	caps                        runtime.Caps
	assistant, researcher, lead func(t testing.TB) []*model.Response
	stop                        runtime.StopReason
	plans, calls                int                     // planning step and call activities
	children                    int                     // child workflows
	refused                     []runtime.RefusalReason // the run's refusals, in order
}

func none(testing.TB) []*model.Response { return nil }

var scenarios = []scenario{
	{name: "discovery then calls", agent: "assistant", stop: runtime.StopCompleted, plans: 3, calls: 2,
		refused: []runtime.RefusalReason{runtime.RefusedNotDiscovered, runtime.RefusedUnknown},
		assistant: func(t testing.TB) []*model.Response {
			return []*model.Response{
				respond(t, search("d1", "records_search")),
				respond(t, call("c1", "records_lookup", `{"id":"7"}`), call("c2", "records_search", `{"id":"7"}`),
					call("c3", "records_delete", `{"id":"7"}`), call("c4", "records_nope", `{}`)),
				final(t, "done"),
			}
		}, researcher: none, lead: none},
	{name: "tool call cap", agent: "assistant", caps: runtime.Caps{MaxToolCalls: 1}, stop: runtime.StopMaxToolCalls, plans: 1, calls: 1,
		refused: []runtime.RefusalReason{runtime.RefusedMaxToolCalls},
		assistant: func(t testing.TB) []*model.Response {
			return []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"1"}`), call("c2", "records_lookup", `{"id":"2"}`))}
		}, researcher: none, lead: none},
	{name: "step cap", agent: "assistant", caps: runtime.Caps{MaxSteps: 2}, stop: runtime.StopMaxSteps, plans: 2, calls: 2,
		assistant: func(t testing.TB) []*model.Response {
			return []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"1"}`)), respond(t, call("c2", "records_lookup", `{"id":"2"}`))}
		}, researcher: none, lead: none},
	{name: "child run", agent: "lead", stop: runtime.StopCompleted, plans: 4, calls: 1, children: 1,
		assistant: none,
		researcher: func(t testing.TB) []*model.Response {
			return []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"7"}`)), final(t, "record 7 is fine")}
		},
		lead: func(t testing.TB) []*model.Response {
			return []*model.Response{respond(t, call("p1", "experts_research", `{"request":"Check record 7"}`)), final(t, "ok")}
		}},
	{name: "depth cap", agent: "lead", caps: runtime.Caps{MaxDepth: 1}, stop: runtime.StopCompleted, plans: 3, children: 1,
		assistant: none,
		researcher: func(t testing.TB) []*model.Response {
			return []*model.Response{respond(t, call("c1", "experts_research", `{"request":"deeper"}`))}
		},
		lead: func(t testing.TB) []*model.Response {
			return []*model.Response{respond(t, call("p1", "experts_research", `{"request":"Check"}`)), final(t, "ok")}
		}},
}

// TestWorkflowRunsTheRunLoop runs each scenario as a workflow and on the
// in-memory engine: the same output and record, each planning step and
// tool call one activity, each agent tool call one child workflow.
func TestWorkflowRunsTheRunLoop(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			build := func(engine runtime.Engine, exec runtime.ToolExecutor) *runtime.Runtime {
				return newRuntime(t, engine, exec, sc.caps, sc.assistant(t), sc.researcher(t), sc.lead(t))
			}
			memExec := &countingExecutor{}
			mem := build(nil, memExec)
			memOut, memErr := mem.Client(sc.agent).Run(context.Background(), []model.Message{model.UserMessage("go")}, runtime.WithRunID("r1"))
			memState, err := mem.LoadRun(context.Background(), "r1")
			if err != nil {
				t.Fatal(err)
			}

			exec := &countingExecutor{}
			var children int
			w := runWorkflow(t, temporal.Options{}, func(e runtime.Engine) *runtime.Runtime { return build(e, exec) }, sc.agent,
				func(env *testsuite.TestWorkflowEnvironment) {
					env.SetOnChildWorkflowStartedListener(func(*workflow.Info, workflow.Context, converter.EncodedValues) { children++ })
				})
			if w.err != nil {
				t.Fatal(w.err)
			}
			if w.res.Output == nil || w.res.Output.Stop != sc.stop {
				t.Fatalf("workflow result %+v, want stop %q", w.res, sc.stop)
			}
			var refused []runtime.RefusalReason
			for _, f := range w.res.State.Refusals {
				refused = append(refused, f.Reason)
			}
			if diff := cmp.Diff(sc.refused, refused); diff != "" {
				t.Errorf("recorded refusals (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(memOut, w.res.Output.RunOutput()); diff != "" {
				t.Errorf("workflow output differs (-memory +workflow):\n%s", diff)
			}
			if diff := cmp.Diff(memState, w.res.State); diff != "" {
				t.Errorf("workflow record differs (-memory +workflow):\n%s", diff)
			}
			if (memErr != nil) != (sc.stop != runtime.StopCompleted) {
				t.Errorf("in memory: %v", memErr)
			}
			if diff := cmp.Diff(memExec.executions(), exec.executions(), cmp.AllowUnexported(callKey{})); diff != "" {
				t.Errorf("executions differ (-memory +workflow):\n%s", diff)
			}
			if got := w.activities[temporal.PlanActivity]; got != sc.plans {
				t.Errorf("%d planning step activities, want %d", got, sc.plans)
			}
			if got := w.activities[temporal.CallActivity]; got != sc.calls {
				t.Errorf("%d tool call activities, want %d", got, sc.calls)
			}
			if children != sc.children {
				t.Errorf("%d child workflows, want %d", children, sc.children)
			}
		})
	}
}

// retryOptions retry an activity every interval, at most attempts times.
func retryOptions(interval time.Duration, attempts int32) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &sdktemporal.RetryPolicy{InitialInterval: interval, BackoffCoefficient: 1, MaximumAttempts: attempts},
	}
}

// TestRetriedCallCarriesItsIdentity fails a tool call's first attempt as a
// worker that dies mid-call: the application's retry policy runs it again
// with the same run, step and call id, the run goes on, and its tool call
// cap counts the call once.
func TestRetriedCallCarriesItsIdentity(t *testing.T) {
	exec := &countingExecutor{crash: func(_ callKey, attempt int32) bool { return attempt == 1 }}
	opts := temporal.Options{Call: retryOptions(time.Second, 3)}
	w := runWorkflow(t, opts, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, exec, runtime.Caps{MaxToolCalls: 1}, []*model.Response{
			respond(t, call("c1", "records_lookup", `{"id":"1"}`), call("c2", "records_lookup", `{"id":"2"}`)),
		}, nil, nil)
	}, "assistant", nil)
	if w.err != nil {
		t.Fatal(w.err)
	}
	key := callKey{run: "r1", call: "c1", step: 1}
	want := map[callKey]int{key: 2}
	if diff := cmp.Diff(want, exec.executions(), cmp.AllowUnexported(callKey{})); diff != "" {
		t.Errorf("executions (-want +got):\n%s", diff)
	}
	if got := exec.attempts[key]; !cmp.Equal(got, []int32{1, 2}) {
		t.Errorf("attempts of %v: %v, want [1 2]", key, got)
	}
	if w.res.Output.Stop != runtime.StopMaxToolCalls || w.res.State.ToolCalls != 1 || len(w.res.State.Calls) != 1 {
		t.Errorf("run stops with %q after %d tool calls, %d recorded; want max_tool_calls after 1", w.res.Output.Stop, w.res.State.ToolCalls, len(w.res.State.Calls))
	}
}

// TestRetryPolicyIsTheApplications checks that a call activity is tried as
// often as the application's policy says, and that the run then fails.
func TestRetryPolicyIsTheApplications(t *testing.T) {
	exec := &countingExecutor{crash: func(callKey, int32) bool { return true }}
	w := runWorkflow(t, temporal.Options{Call: retryOptions(time.Second, 2)}, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, exec, runtime.Caps{}, []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"1"}`))}, nil, nil)
	}, "assistant", nil)
	if w.err != nil {
		t.Fatal(w.err)
	}
	if got := exec.executions()[callKey{run: "r1", call: "c1", step: 1}]; got != 2 {
		t.Errorf("the call ran %d times, want the policy's 2 attempts", got)
	}
	if w.res.Error == "" || w.res.State.Status != runtime.RunFailed {
		t.Errorf("result %+v, want a failed run", w.res)
	}
}

// TestTimeCapOnWorkflowClock retries a failing call until the run's time
// cap on the workflow's clock: the retries stop at the cap and the run
// stops with StopTimeBudget.
func TestTimeCapOnWorkflowClock(t *testing.T) {
	exec := &countingExecutor{crash: func(callKey, int32) bool { return true }}
	w := runWorkflow(t, temporal.Options{Call: retryOptions(25*time.Minute, 10)}, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, exec, runtime.Caps{MaxDuration: time.Hour}, []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"1"}`))}, nil, nil)
	}, "assistant", nil)
	if w.err != nil {
		t.Fatal(w.err)
	}
	if w.res.Output == nil || w.res.Output.Stop != runtime.StopTimeBudget {
		t.Fatalf("result %+v, want a run stopped by its time cap", w.res)
	}
	if got := exec.executions()[callKey{run: "r1", call: "c1", step: 1}]; got != 3 {
		t.Errorf("the call ran %d times, want 3 (at 0, 25 and 50 minutes of a 1 hour cap)", got)
	}
	if w.res.Limit != "1h0m0s" {
		t.Errorf("limit %q", w.res.Limit)
	}
}

// TestQueryWhileRunning queries the run's workflow from inside a tool call:
// the messages recorded so far are the workflow's data.
func TestQueryWhileRunning(t *testing.T) {
	var env *testsuite.TestWorkflowEnvironment
	var seen *runtime.RunState
	var qerr error
	exec := &countingExecutor{during: func(key callKey) {
		if key.call != "c2" {
			return
		}
		v, err := env.QueryWorkflow(temporal.QueryRun)
		if err != nil {
			qerr = err
			return
		}
		seen = new(runtime.RunState)
		qerr = v.Get(seen)
	}}
	w := runWorkflow(t, temporal.Options{}, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, exec, runtime.Caps{}, []*model.Response{
			respond(t, call("c1", "records_lookup", `{"id":"1"}`)),
			respond(t, call("c2", "records_lookup", `{"id":"2"}`)),
			final(t, "done"),
		}, nil, nil)
	}, "assistant", func(e *testsuite.TestWorkflowEnvironment) { env = e })
	if w.err != nil {
		t.Fatal(w.err)
	}
	if qerr != nil {
		t.Fatal(qerr)
	}
	if seen == nil || seen.Status != runtime.RunActive || len(seen.Messages) != 3 || seen.Steps != 1 {
		t.Fatalf("query during step 2 gave %+v, want the active run after step 1 (3 messages)", seen)
	}
	if diff := cmp.Diff(w.res.State.Messages[:3], seen.Messages); diff != "" {
		t.Errorf("queried messages differ from the record (-record +query):\n%s", diff)
	}
}

// TestContinueFromRecordedState continues a stopped run as a new
// execution of its workflow from the recorded state.
func TestContinueFromRecordedState(t *testing.T) {
	exec := &countingExecutor{}
	script := func(t testing.TB) []*model.Response {
		return []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"1"}`)), respond(t, call("c2", "records_lookup", `{"id":"2"}`)), final(t, "done")}
	}
	first := runWorkflow(t, temporal.Options{}, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, exec, runtime.Caps{MaxSteps: 1}, script(t), nil, nil)
	}, "assistant", nil)
	if first.err != nil || first.res.Output.Stop != runtime.StopMaxSteps {
		t.Fatalf("first invocation: %+v %v", first.res, first.err)
	}
	env := newEnv()
	engine := temporal.New(nil, temporal.Options{})
	engine.Register(env, newRuntime(t, engine, exec, runtime.Caps{}, script(t), nil, nil))
	env.ExecuteWorkflow(temporal.RunWorkflow, &runtime.RunSpec{State: *first.res.State, Input: []model.Message{model.UserMessage("go on")}})
	var res temporal.Result
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Output.Stop != runtime.StopCompleted || res.State.Steps != 3 || len(res.State.Calls) != 2 || res.Output.RunOutput().Final.Text() != "done" {
		t.Errorf("continued run: %+v", res.State)
	}
	for k, n := range exec.executions() {
		if n != 1 {
			t.Errorf("call %v ran %d times", k, n)
		}
	}
}
