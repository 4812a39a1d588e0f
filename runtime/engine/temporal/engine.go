package temporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Names under which a worker registers the workflows, activities and
// query.
const (
	// RunWorkflow runs one invocation of a run.
	RunWorkflow = "goa-discovery.Run"
	// ImportWorkflow holds an imported run until it is continued.
	ImportWorkflow = "goa-discovery.Import"
	// PlanActivity runs a planning step.
	PlanActivity = "goa-discovery.PlanStep"
	// CallActivity executes a tool call.
	CallActivity = "goa-discovery.ExecuteCall"
	// ConfirmActivity asks the confirmer about an agent tool call.
	ConfirmActivity = "goa-discovery.ConfirmCall"
	// QueryRun returns the run's runtime.RunState.
	QueryRun = "run"
)

// ErrRunFailed is wrapped by the error of a run whose workflow reports a
// failed step; the text says why.
var ErrRunFailed = errors.New("temporal: run failed")

// Options configure an Engine. Zero activity options take
// DefaultActivityOptions; the time the run has left bounds every activity.
type Options struct {
	// TaskQueue is the task queue of the workflows and activities.
	TaskQueue string
	// Plan are the options of planning step activities: timeouts and the
	// retry policy.
	Plan workflow.ActivityOptions
	// Call are the options of tool call activities.
	Call workflow.ActivityOptions
}

// DefaultActivityOptions are the options of an activity the application
// sets none for.
var DefaultActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 5},
}

// Engine records and runs a runtime's runs on Temporal. It is the
// runtime's engine (runtime.WithEngine) on the client side and, bound with
// Register, the workflows and activities of a worker.
type Engine struct {
	client client.Client
	opts   Options
	rt     *runtime.Runtime // set by Register, for workers
}

// New returns an engine that starts runs with c.
func New(c client.Client, opts Options) *Engine {
	if opts.Plan.StartToCloseTimeout == 0 && opts.Plan.ScheduleToCloseTimeout == 0 {
		opts.Plan = DefaultActivityOptions
	}
	if opts.Call.StartToCloseTimeout == 0 && opts.Call.ScheduleToCloseTimeout == 0 {
		opts.Call = DefaultActivityOptions
	}
	return &Engine{client: c, opts: opts}
}

var (
	_ runtime.Engine   = (*Engine)(nil)
	_ runtime.Launcher = (*Engine)(nil)
)

// Launch runs an invocation as an execution of the run's workflow and
// waits for it. A new run's id must be new to Temporal (runtime.ErrRunExists
// otherwise); a continued run's workflow must not be running
// (runtime.ErrRunActive).
func (e *Engine) Launch(ctx context.Context, spec *runtime.RunSpec) (*runtime.RunOutput, error) {
	opts := client.StartWorkflowOptions{
		ID:                                       spec.State.ID,
		TaskQueue:                                e.opts.TaskQueue,
		WorkflowIDConflictPolicy:                 enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
	}
	if spec.Create {
		opts.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	}
	run, err := e.client.ExecuteWorkflow(ctx, opts, RunWorkflow, spec)
	if err != nil {
		return nil, startError(spec, err)
	}
	var res Result
	if err := run.Get(ctx, &res); err != nil {
		return nil, fmt.Errorf("run %q: %w", spec.State.ID, err)
	}
	return res.output()
}

// startError maps a refused start to the runtime's errors.
func startError(spec *runtime.RunSpec, err error) error {
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		if spec.Create {
			return fmt.Errorf("%w: %q: %w", runtime.ErrRunExists, spec.State.ID, err)
		}
		return fmt.Errorf("%w: %q: %w", runtime.ErrRunActive, spec.State.ID, err)
	}
	return fmt.Errorf("start run %q: %w", spec.State.ID, err)
}

// CreateRun records an imported run as a workflow that holds it until it is
// continued.
func (e *Engine) CreateRun(ctx context.Context, state *runtime.RunState) error {
	opts := client.StartWorkflowOptions{
		ID:                                       state.ID,
		TaskQueue:                                e.opts.TaskQueue,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
	}
	run, err := e.client.ExecuteWorkflow(ctx, opts, ImportWorkflow, state)
	if err != nil {
		return startError(&runtime.RunSpec{State: *state, Create: true}, err)
	}
	return run.Get(ctx, nil)
}

// errRecordedByWorkflow is returned by the Engine methods that runs on
// Temporal never need: their workflows record them.
var errRecordedByWorkflow = errors.New("temporal: runs are recorded by their workflows")

// AppendRun is refused: a run's workflow records its steps.
func (e *Engine) AppendRun(context.Context, string, runtime.RunUpdate) error {
	return errRecordedByWorkflow
}

// ResumeRun is refused: Launch continues a run as a new execution of its
// workflow.
func (e *Engine) ResumeRun(context.Context, string) (*runtime.RunState, error) {
	return nil, errRecordedByWorkflow
}

// LoadRun queries the run's latest workflow execution for its state, while
// it runs or after it stopped.
func (e *Engine) LoadRun(ctx context.Context, id string) (*runtime.RunState, error) {
	v, err := e.client.QueryWorkflow(ctx, id, "", QueryRun)
	if err != nil {
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) {
			return nil, fmt.Errorf("%w %q", runtime.ErrUnknownRun, id)
		}
		return nil, fmt.Errorf("load run %q: %w", id, err)
	}
	var state runtime.RunState
	if err := v.Get(&state); err != nil {
		return nil, fmt.Errorf("load run %q: %w", id, err)
	}
	return &state, nil
}

// Result is what a run's workflow returns: the run as recorded and the
// invocation's output.
type Result struct {
	// State is the run as recorded when the invocation ended.
	State *runtime.RunState `json:"state"`
	// Output is the invocation's output.
	Output *Output `json:"output,omitempty"`
	// Limit is the cap's value when a cap stopped the run.
	Limit string `json:"limit,omitempty"`
	// Error says why the invocation failed.
	Error string `json:"error,omitempty"`
}

// Output is a runtime.RunOutput as workflow data; its final message is the
// last assistant message of Messages.
type Output struct {
	RunID     string               `json:"run_id"`
	Messages  []model.Message      `json:"messages"`
	Calls     []runtime.CallRecord `json:"calls,omitempty"`
	Refusals  []runtime.Refusal    `json:"refusals,omitempty"`
	Steps     int                  `json:"steps"`
	ToolCalls int                  `json:"tool_calls"`
	Usage     model.Usage          `json:"usage"`
	Stop      runtime.StopReason   `json:"stop,omitempty"`
}

// newOutput returns out as workflow data.
func newOutput(out *runtime.RunOutput) *Output {
	if out == nil {
		return nil
	}
	return &Output{RunID: out.RunID, Messages: out.Messages, Calls: out.Calls, Refusals: out.Refusals, Steps: out.Steps, ToolCalls: out.ToolCalls, Usage: out.Usage, Stop: out.Stop}
}

// RunOutput returns the output as the runtime gives it.
func (o *Output) RunOutput() *runtime.RunOutput {
	if o == nil {
		return nil
	}
	out := &runtime.RunOutput{RunID: o.RunID, Messages: o.Messages, Calls: o.Calls, Refusals: o.Refusals, Steps: o.Steps, ToolCalls: o.ToolCalls, Usage: o.Usage, Stop: o.Stop}
	for i := len(o.Messages) - 1; i >= 0; i-- {
		if o.Messages[i].Role == model.RoleAssistant {
			out.Final = o.Messages[i]
			break
		}
	}
	return out
}

// output returns what the runtime's Run returns for the result.
func (r *Result) output() (*runtime.RunOutput, error) {
	out := r.Output.RunOutput()
	switch {
	case r.Error != "":
		return out, fmt.Errorf("%w: %s", ErrRunFailed, r.Error)
	case out == nil:
		return nil, fmt.Errorf("%w: the workflow returned no output", ErrRunFailed)
	case out.Stop != runtime.StopCompleted:
		return out, &runtime.CapError{RunID: out.RunID, Reason: out.Stop, Limit: r.Limit}
	}
	return out, nil
}
