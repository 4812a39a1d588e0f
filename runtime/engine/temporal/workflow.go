package temporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Register registers the engine's workflows and activities with a worker,
// running them with rt: rt has the registrations (toolsets, agents,
// registries) of every process that runs the engine's runs, and is the
// runtime that has e as its engine.
func (e *Engine) Register(w worker.Registry, rt *runtime.Runtime) {
	e.rt = rt
	w.RegisterWorkflowWithOptions(e.runWorkflow, workflow.RegisterOptions{Name: RunWorkflow})
	w.RegisterWorkflowWithOptions(importWorkflow, workflow.RegisterOptions{Name: ImportWorkflow})
	w.RegisterActivityWithOptions(e.planActivity, activity.RegisterOptions{Name: PlanActivity})
	w.RegisterActivityWithOptions(e.callActivity, activity.RegisterOptions{Name: CallActivity})
	w.RegisterActivityWithOptions(e.confirmActivity, activity.RegisterOptions{Name: ConfirmActivity})
}

// runWorkflow runs one invocation of a run with the runtime's run loop; its
// steps are activities and child workflows.
func (e *Engine) runWorkflow(ctx workflow.Context, spec *runtime.RunSpec) (*Result, error) {
	if e.rt == nil {
		return nil, errors.New("temporal: the engine is not registered with a runtime")
	}
	record := runtime.NewMemoryEngine()
	id := spec.State.ID
	if !spec.Create {
		if err := record.CreateRun(context.Background(), &spec.State); err != nil {
			return nil, err
		}
	}
	err := workflow.SetQueryHandler(ctx, QueryRun, func() (*runtime.RunState, error) {
		return record.LoadRun(context.Background(), id)
	})
	if err != nil {
		return nil, fmt.Errorf("run %q: %w", id, err)
	}
	steps := &workflowSteps{ctx: ctx, e: e, spec: spec, record: record}
	out, err := e.rt.Drive(context.Background(), steps, spec)
	res := &Result{Output: newOutput(out)}
	var capErr *runtime.CapError
	switch {
	case errors.As(err, &capErr):
		res.Limit = capErr.Limit
	case err != nil:
		res.Error = err.Error()
	}
	if res.State, err = record.LoadRun(context.Background(), id); err != nil && res.Error == "" {
		res.Error = err.Error()
	}
	return res, nil
}

// importWorkflow holds an imported run: its query answers with the state,
// and it returns it at once.
func importWorkflow(ctx workflow.Context, state *runtime.RunState) (*Result, error) {
	err := workflow.SetQueryHandler(ctx, QueryRun, func() (*runtime.RunState, error) { return state, nil })
	if err != nil {
		return nil, err
	}
	return &Result{State: state}, nil
}

func (e *Engine) planActivity(ctx context.Context, req *runtime.StepRequest) (*runtime.StepPlan, error) {
	return e.rt.PlanStep(ctx, req)
}

func (e *Engine) callActivity(ctx context.Context, req *runtime.CallRequest) (*runtime.CallResult, error) {
	return e.rt.ExecuteCall(ctx, req)
}

func (e *Engine) confirmActivity(ctx context.Context, req *runtime.CallRequest) (*runtime.CallResult, error) {
	return e.rt.ConfirmCall(ctx, req)
}

// workflowSteps are the steps of one invocation, in its workflow.
type workflowSteps struct {
	ctx    workflow.Context
	e      *Engine
	spec   *runtime.RunSpec
	record *runtime.MemoryEngine
	// deadline is the invocation's time cap on the workflow's clock;
	// spent is set when an activity's retries no longer fit before it.
	deadline time.Time
	spent    bool
}

// now is the invocation's clock: the workflow's, at the deadline once the
// time is spent.
func (s *workflowSteps) now() time.Time {
	if s.spent {
		return s.deadline
	}
	return workflow.Now(s.ctx)
}

func (s *workflowSteps) CreateRun(ctx context.Context, state *runtime.RunState) error {
	return s.record.CreateRun(ctx, state)
}

func (s *workflowSteps) AppendRun(ctx context.Context, id string, u runtime.RunUpdate) error {
	return s.record.AppendRun(ctx, id, u)
}

// Bound bounds the invocation on the workflow's clock, which a replay
// reads back from the history: the time cap holds across worker restarts.
func (s *workflowSteps) Bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	s.deadline = workflow.Now(s.ctx).Add(d)
	if dl := s.spec.Deadline; !dl.IsZero() && dl.Before(s.deadline) {
		s.deadline = dl
	}
	return runtime.ClockBound(ctx, s.deadline, s.now), func() {}
}

// activityContext bounds an activity's options by the time the run has
// left, retries included.
func (s *workflowSteps) activityContext(opts workflow.ActivityOptions) workflow.Context {
	left := s.deadline.Sub(s.now())
	if left < time.Millisecond {
		left = time.Millisecond
	}
	if opts.ScheduleToCloseTimeout == 0 || opts.ScheduleToCloseTimeout > left {
		opts.ScheduleToCloseTimeout = left
	}
	if opts.StartToCloseTimeout > left {
		opts.StartToCloseTimeout = left
	}
	if opts.TaskQueue == "" {
		opts.TaskQueue = s.e.opts.TaskQueue
	}
	return workflow.WithActivityOptions(s.ctx, opts)
}

// outOfTime reports whether an activity with opts failed for want of the
// run's time: the deadline passed, its retries were cut by the time left
// (which bounds every activity), or not even its policy's first retry
// interval is left. The run's time is then spent.
func (s *workflowSteps) outOfTime(err error, opts workflow.ActivityOptions) bool {
	now := workflow.Now(s.ctx)
	interval := time.Second // the SDK's default first retry interval
	if p := opts.RetryPolicy; p != nil && p.InitialInterval > 0 {
		interval = p.InitialInterval
	}
	var actErr *temporal.ActivityError
	switch {
	case !now.Before(s.deadline), !now.Add(interval).Before(s.deadline),
		errors.As(err, &actErr) && actErr.RetryState() == enumspb.RETRY_STATE_TIMEOUT:
		s.spent = true
	}
	return s.spent
}

func (s *workflowSteps) PlanStep(_ context.Context, req *runtime.StepRequest, _ func(context.Context) (*runtime.StepPlan, error)) (*runtime.StepPlan, error) {
	var plan runtime.StepPlan
	if err := workflow.ExecuteActivity(s.activityContext(s.e.opts.Plan), PlanActivity, req).Get(s.ctx, &plan); err != nil {
		s.outOfTime(err, s.e.opts.Plan)
		return nil, err
	}
	return &plan, nil
}

func (s *workflowSteps) ExecuteCall(_ context.Context, req *runtime.CallRequest, _ func(context.Context) (*runtime.CallResult, error)) (*runtime.CallResult, error) {
	if req.Child == nil {
		var res runtime.CallResult
		if err := workflow.ExecuteActivity(s.activityContext(s.e.opts.Call), CallActivity, req).Get(s.ctx, &res); err != nil {
			if s.outOfTime(err, s.e.opts.Call) {
				// The run's time ended while the call was tried: it may
				// have run, as a call the in-memory engine cancels.
				return outOfTime(req, err), nil
			}
			return nil, err
		}
		return &res, nil
	}
	if _, _, needed, _ := req.Record.Confirmation(); needed {
		var res *runtime.CallResult
		if err := workflow.ExecuteActivity(s.activityContext(s.e.opts.Call), ConfirmActivity, req).Get(s.ctx, &res); err != nil {
			return nil, err
		}
		if res != nil {
			return res, nil
		}
	}
	child := req.Child
	ctx := workflow.WithChildOptions(s.ctx, workflow.ChildWorkflowOptions{
		WorkflowID:         child.State.ID,
		TaskQueue:          s.e.opts.TaskQueue,
		WorkflowRunTimeout: s.deadline.Sub(workflow.Now(s.ctx)),
	})
	child.Deadline = s.deadline
	var res Result
	if err := workflow.ExecuteChildWorkflow(ctx, RunWorkflow, child).Get(s.ctx, &res); err != nil {
		return runtime.AgentCallResult(req, nil, err), nil
	}
	out, err := res.output()
	return runtime.AgentCallResult(req, out, err), nil
}

// outOfTime answers a call whose activity the run's time cap ended.
func outOfTime(req *runtime.CallRequest, err error) *runtime.CallResult {
	rec := req.Record
	rec.Error = err.Error()
	return &runtime.CallResult{
		Result: model.ToolResult{CallID: rec.CallID, Name: rec.Name, Content: "The tool failed: the run's time ran out.", IsError: true},
		Ran:    true,
		Record: rec,
	}
}
