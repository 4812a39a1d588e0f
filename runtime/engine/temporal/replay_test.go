package temporal_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// recorder keeps the results of the activities that completed, as the
// workflow's history does, keyed by activity and step or call.
type recorder struct {
	mu      sync.Mutex
	plans   map[int]*runtime.StepPlan
	calls   map[string]*runtime.CallResult
	replays int // activities answered from the record
}

// errCrash is what the activities of a worker that is gone return.
var errCrash = errors.New("the worker is gone")

func callID(req *runtime.CallRequest) string {
	return fmt.Sprintf("%s/%d/%s", req.RunID, req.Record.Step, req.Record.CallID)
}

// TestCrashAfterActivityCompletes runs a run whose worker "crashes" right
// after each activity completes, before the workflow's next step: the
// workflow starts over on a new worker whose activities completed before
// the crash answer from the record, as a replay of the workflow's history
// does. Whatever the crash point, no recorded call runs twice, and the run
// ends as a run without a crash.
func TestCrashAfterActivityCompletes(t *testing.T) {
	script := func(t testing.TB) []*model.Response {
		return []*model.Response{
			respond(t, search("d1", "records_search")),
			respond(t, call("c1", "records_lookup", `{"id":"7"}`), call("c2", "records_search", `{"id":"7"}`)),
			respond(t, call("c3", "records_lookup", `{"id":"8"}`)),
			final(t, "done"),
		}
	}
	// The run without a crash.
	clean := runWorkflow(t, temporal.Options{}, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, &countingExecutor{}, runtime.Caps{}, script(t), nil, nil)
	}, "assistant", nil)
	if clean.err != nil {
		t.Fatal(clean.err)
	}
	activities := clean.activities[temporal.PlanActivity] + clean.activities[temporal.CallActivity]
	if activities != 7 {
		t.Fatalf("the clean run completed %d activities, want 7", activities)
	}
	for crashAfter := 1; crashAfter <= activities; crashAfter++ {
		t.Run(fmt.Sprintf("after activity %d", crashAfter), func(t *testing.T) {
			exec := &countingExecutor{}
			rec := &recorder{plans: map[int]*runtime.StepPlan{}, calls: map[string]*runtime.CallResult{}}
			// The first worker: its activities run and are recorded up to
			// the crash point; past it the worker is gone, and nothing runs.
			var mu sync.Mutex
			var done int
			crashed := func() bool {
				mu.Lock()
				defer mu.Unlock()
				if done >= crashAfter {
					return true
				}
				done++
				return false
			}
			var rt1 *runtime.Runtime
			runWorkflow(t, temporal.Options{Plan: retryOptions(time.Second, 1), Call: retryOptions(time.Second, 1)}, func(e runtime.Engine) *runtime.Runtime {
				rt1 = newRuntime(t, e, exec, runtime.Caps{}, script(t), nil, nil)
				return rt1
			}, "assistant", func(env *testsuite.TestWorkflowEnvironment) {
				env.OnActivity(temporal.PlanActivity, mock.Anything, mock.Anything).Return(func(ctx context.Context, req *runtime.StepRequest) (*runtime.StepPlan, error) {
					if crashed() {
						return nil, errCrash
					}
					p, err := rt1.PlanStep(ctx, req)
					if err == nil {
						rec.mu.Lock()
						rec.plans[req.Step] = p
						rec.mu.Unlock()
					}
					return p, err
				})
				env.OnActivity(temporal.CallActivity, mock.Anything, mock.Anything).Return(func(ctx context.Context, req *runtime.CallRequest) (*runtime.CallResult, error) {
					if crashed() {
						return nil, errCrash
					}
					r, err := rt1.ExecuteCall(ctx, req)
					if err == nil {
						rec.mu.Lock()
						rec.calls[callID(req)] = r
						rec.mu.Unlock()
					}
					return r, err
				})
			})
			before := exec.executions()

			// The second worker replays: recorded activities answer from
			// the record, the others run.
			var rt2 *runtime.Runtime
			second := runWorkflow(t, temporal.Options{}, func(e runtime.Engine) *runtime.Runtime {
				rt2 = newRuntime(t, e, exec, runtime.Caps{}, script(t), nil, nil)
				return rt2
			}, "assistant", func(env *testsuite.TestWorkflowEnvironment) {
				env.OnActivity(temporal.PlanActivity, mock.Anything, mock.Anything).Return(func(ctx context.Context, req *runtime.StepRequest) (*runtime.StepPlan, error) {
					rec.mu.Lock()
					p, ok := rec.plans[req.Step]
					if ok {
						rec.replays++
					}
					rec.mu.Unlock()
					if ok {
						return p, nil
					}
					return rt2.PlanStep(ctx, req)
				})
				env.OnActivity(temporal.CallActivity, mock.Anything, mock.Anything).Return(func(ctx context.Context, req *runtime.CallRequest) (*runtime.CallResult, error) {
					rec.mu.Lock()
					r, ok := rec.calls[callID(req)]
					if ok {
						rec.replays++
					}
					rec.mu.Unlock()
					if ok {
						return r, nil
					}
					return rt2.ExecuteCall(ctx, req)
				})
			})
			if second.err != nil {
				t.Fatal(second.err)
			}
			if rec.replays != crashAfter {
				t.Errorf("%d activities answered from the record, want the %d completed before the crash", rec.replays, crashAfter)
			}
			for k, n := range exec.executions() {
				if n != 1 {
					t.Errorf("call %v ran %d times (%d before the crash)", k, n, before[k])
				}
			}
			if diff := cmp.Diff(clean.res.State, second.res.State); diff != "" {
				t.Errorf("the replayed run differs from the clean one (-clean +replayed):\n%s", diff)
			}
		})
	}
}

// TestImportRunFromHistory imports a run from the history of its
// workflow's completed execution and continues it.
func TestImportRunFromHistory(t *testing.T) {
	w := runWorkflow(t, temporal.Options{}, func(e runtime.Engine) *runtime.Runtime {
		return newRuntime(t, e, &countingExecutor{}, runtime.Caps{MaxSteps: 1}, []*model.Response{respond(t, call("c1", "records_lookup", `{"id":"1"}`))}, nil, nil)
	}, "assistant", nil)
	if w.err != nil {
		t.Fatal(w.err)
	}
	payloads, err := converter.GetDefaultDataConverter().ToPayloads(&w.res)
	if err != nil {
		t.Fatal(err)
	}
	history := &historypb.History{Events: []*historypb.HistoryEvent{
		{EventId: 1, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED},
		{EventId: 2, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, Attributes: &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{
			WorkflowExecutionCompletedEventAttributes: &historypb.WorkflowExecutionCompletedEventAttributes{Result: payloads},
		}},
	}}
	state, err := temporal.RunStateFromHistory(history, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w.res.State, state); diff != "" {
		t.Fatalf("state from history differs (-workflow +history):\n%s", diff)
	}
	mem := newRuntime(t, nil, &countingExecutor{}, runtime.Caps{}, []*model.Response{nil, final(t, "done")}, nil, nil)
	if err := mem.ImportRun(context.Background(), state); err != nil {
		t.Fatal(err)
	}
	out, err := mem.Client("assistant").Continue(context.Background(), "r1", []model.Message{model.UserMessage("go on")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Final.Text() != "done" {
		t.Errorf("continued imported run ends with %q", out.Final.Text())
	}
	if _, err := temporal.RunStateFromHistory(&historypb.History{}, nil); err == nil {
		t.Error("a history without a completed run gave a state")
	}
}
