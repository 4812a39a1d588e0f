package runtime

// The engine seam: one run loop, two drivers. The run loop (run.loop,
// step.run) decides everything about a run deterministically from what its
// steps return: the caps, the stop reasons, which admitted calls execute,
// what the history records. Every side effect goes through the Steps the
// loop is driven with: a planning step (catalog resolution, the planner
// call, admission and discovery answers, which need the step's catalog),
// each tool call's execution (a child run for an agent used as a tool),
// recording the run, and the clock of the time cap. The in-memory engine's
// Steps call the step functions directly; a durable engine (package
// runtime/engine/temporal) records them and, on a replay, returns what it
// recorded instead of running them again, running them on a worker through
// Runtime.PlanStep and Runtime.ExecuteCall, which are the same functions.
// Both drivers run a child run with Drive from the RunSpec the step builds
// for the call.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Steps runs the side effects of a run loop for its engine. Each method
// with a function argument either calls it (the in-memory engine) or runs
// the same step from the request elsewhere (Runtime.PlanStep,
// Runtime.ExecuteCall) and returns what that step returned, recorded.
type Steps interface {
	// CreateRun records a new run, as Engine.CreateRun.
	CreateRun(ctx context.Context, state *RunState) error
	// AppendRun records what a step added, as Engine.AppendRun.
	AppendRun(ctx context.Context, id string, update RunUpdate) error
	// Bound returns ctx bounded by d on the engine's clock: when d has
	// passed, the run stops with StopTimeBudget. ClockBound makes one for
	// an engine with a clock of its own.
	Bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
	// PlanStep runs one planning step.
	PlanStep(ctx context.Context, req *StepRequest, plan func(context.Context) (*StepPlan, error)) (*StepPlan, error)
	// ExecuteCall executes one admitted call. A call of an agent used as
	// a tool carries its child run (CallRequest.Child): a durable engine
	// runs it with Drive and reports it with AgentCallResult.
	ExecuteCall(ctx context.Context, req *CallRequest, exec func(context.Context) (*CallResult, error)) (*CallResult, error)
}

// Launcher is an Engine that runs invocations itself, as a durable engine
// does: Run and Continue hand it the invocation instead of running the
// loop in the caller, and it drives the loop with Runtime.Drive where it
// chooses. It enforces one active invocation per run (ErrRunActive).
type Launcher interface {
	Launch(ctx context.Context, spec *RunSpec) (*RunOutput, error)
}

// RunSpec is one invocation of a run as plain data: what Runtime.Drive
// needs to run it anywhere the same registrations are.
type RunSpec struct {
	// State is the run as recorded before the invocation: for a new run
	// its id, agent, parent and labels.
	State RunState `json:"state"`
	// Input are the messages the invocation appends.
	Input []model.Message `json:"input,omitempty"`
	// Create says the run is new.
	Create bool `json:"create,omitempty"`
	// Caps are the invocation's caps; zero fields take the agent's.
	Caps Caps `json:"caps"`
	// Policy is the invocation's run policy (WithPolicy); a child run
	// keeps its parent's.
	Policy Policy `json:"policy"`
	// Above names the agents of the runs above a child run, whose
	// policies hold for it.
	Above []string `json:"above,omitempty"`
	// Depth counts the runs above; MaxDepth is the deepest a child run of
	// this one may be, Depth plus Caps.MaxDepth when zero.
	Depth    int `json:"depth"`
	MaxDepth int `json:"max_depth"`
	// Deadline, when set, is the time the run above has left: the
	// invocation ends then at the latest.
	Deadline time.Time `json:"deadline,omitzero"`
}

// StepRequest is one planning step as plain data. Its maps and slices are
// the run's own: they are read, never modified.
type StepRequest struct {
	// RunID, Agent and Step identify the step; Step counts over the run's
	// invocations.
	RunID string `json:"run_id"`
	Agent string `json:"agent"`
	Step  int    `json:"step"`
	// Labels, Policy and Above give the policy in force (see RunSpec).
	Labels map[string]string `json:"labels,omitempty"`
	Policy Policy            `json:"policy"`
	Above  []string          `json:"above,omitempty"`
	// Messages is the history the step plans from.
	Messages []model.Message `json:"messages"`
}

// StepPlan is what a planning step decided: the planner's response, the
// admission of each of its tool calls and the answers to its discovery
// calls, all from the step's catalog. A durable engine records it (the
// Temporal engine as the result of its plan activity) and, on a replay,
// hands the recorded plan back instead of planning again, so its JSON form
// is durable: a field is added only with omitempty and a zero value that
// means what the field's absence meant, and no field is renamed or removed.
type StepPlan struct {
	// Response is the planner's validated response.
	Response model.Response `json:"response"`
	// Calls holds one decision per tool call of Response.Message, in
	// order.
	Calls []PlannedCall `json:"calls,omitempty"`
	// Discovery holds one result per discovery call, in order.
	Discovery []model.DiscoveryResult `json:"discovery,omitempty"`
}

// PlannedCall is the admission of one tool call: a refusal, or the record
// it is admitted under. It is the one form of an admission decision; like
// StepPlan, engines record it, so its JSON form is durable. A call admitted
// in this process also keeps its catalog tool and decoded arguments, which
// its execution here uses; a call admitted elsewhere is executed from its
// Record (Runtime.ExecuteCall).
type PlannedCall struct {
	// Refusal is the error result's text of a refused call.
	Refusal string `json:"refusal,omitempty"`
	// Reason says why the call was refused.
	Reason RefusalReason `json:"reason,omitempty"`
	// Record binds an admitted call to its definition.
	Record *CallRecord `json:"record,omitempty"`

	tool    *catalogTool // the admitted call's tool, when admitted here
	payload any          // its arguments as the payload codec decoded them
}

// CallRequest is one admitted call to execute. Its maps and slices are
// the run's own: they are read, never modified.
type CallRequest struct {
	// RunID and Agent identify the run; Record's Step and CallID the call.
	RunID string `json:"run_id"`
	Agent string `json:"agent"`
	// Labels are the run's labels.
	Labels map[string]string `json:"labels,omitempty"`
	// Record is the call as admitted.
	Record CallRecord `json:"record"`
	// Child is the child run of an agent used as a tool.
	Child *RunSpec `json:"child,omitempty"`
}

// CallResult is what executing a call gave.
type CallResult struct {
	// Result answers the call.
	Result model.ToolResult `json:"result"`
	// Ran reports whether the tool ran (a declined confirmation does not).
	Ran bool `json:"ran"`
	// Record is the call's record with its error and child run.
	Record CallRecord `json:"record"`
}

// memorySteps are the steps of the in-memory engine, or of any Engine that
// only records: each step runs where the loop runs.
type memorySteps struct{ engine Engine }

func (s memorySteps) CreateRun(ctx context.Context, state *RunState) error {
	return s.engine.CreateRun(ctx, state)
}

func (s memorySteps) AppendRun(ctx context.Context, id string, u RunUpdate) error {
	return s.engine.AppendRun(ctx, id, u)
}

func (memorySteps) Bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, errTimeBudget)
}

func (memorySteps) PlanStep(ctx context.Context, _ *StepRequest, plan func(context.Context) (*StepPlan, error)) (*StepPlan, error) {
	return plan(ctx)
}

func (memorySteps) ExecuteCall(ctx context.Context, _ *CallRequest, exec func(context.Context) (*CallResult, error)) (*CallResult, error) {
	return exec(ctx)
}

// ClockBound returns parent bounded at deadline on the clock now, for
// Steps whose clock is not the wall clock (a workflow's). Its Err is nil
// until now passes the deadline, then an error matching
// context.DeadlineExceeded that the run loop reads as its time cap. Its
// Done channel is nil: the loop checks Err between steps.
func ClockBound(parent context.Context, deadline time.Time, now func() time.Time) context.Context {
	return &clockContext{Context: parent, deadline: deadline, now: now}
}

type clockContext struct {
	context.Context
	deadline time.Time
	now      func() time.Time
}

// errClockBudget is the Err of an expired clockContext.
var errClockBudget = fmt.Errorf("%w: %w", context.DeadlineExceeded, errTimeBudget)

func (c *clockContext) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *clockContext) Done() <-chan struct{}       { return nil }
func (c *clockContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !c.now().Before(c.deadline) {
		return errClockBudget
	}
	return nil
}

// Drive runs one invocation of a run with steps: the run loop that Run
// and Continue run, for an engine that runs invocations itself, and for
// the child run of an agent used as a tool. It returns what Run returns.
func (rt *Runtime) Drive(ctx context.Context, steps Steps, spec *RunSpec) (*RunOutput, error) {
	r, err := newRun(rt, spec, steps)
	if err != nil {
		return nil, err
	}
	r.state.Status = RunActive
	return r.begin(ctx, spec.Input, spec.Create)
}

// PlanStep runs the planning step of req, as the run loop runs it: the
// step a durable engine runs on a worker.
func (rt *Runtime) PlanStep(ctx context.Context, req *StepRequest) (*StepPlan, error) {
	r, err := newRun(rt, &RunSpec{State: RunState{ID: req.RunID, Agent: req.Agent, Labels: req.Labels}, Policy: req.Policy, Above: req.Above}, nil)
	if err != nil {
		return nil, err
	}
	if err := r.extend(req.Messages...); err != nil {
		return nil, fmt.Errorf("run %q: recorded history: %w", r.id, err)
	}
	return (&step{r: r, number: req.Step}).plan(ctx)
}

// ExecuteCall executes the admitted call of req, as the run loop executes
// it: the step a durable engine runs on a worker. The call's tool is
// rebuilt from its record under the registrations of this runtime, which
// must still hold it as recorded. Calls of agents used as tools are child
// runs, which the engine runs with Drive.
func (rt *Runtime) ExecuteCall(ctx context.Context, req *CallRequest) (*CallResult, error) {
	r, err := newRun(rt, &RunSpec{State: RunState{ID: req.RunID, Agent: req.Agent, Labels: req.Labels}}, nil)
	if err != nil {
		return nil, err
	}
	rec := req.Record
	if rec.Source.Kind == SourceAgent {
		return nil, fmt.Errorf("%w: call %q runs agent %q as a child run", ErrInvalidInput, rec.CallID, rec.Source.Agent)
	}
	t, err := rt.replayTool(r.agent, &rec)
	if err != nil {
		return nil, fmt.Errorf("call %q: %w", rec.CallID, err)
	}
	spec, err := t.payloadSpec()
	if err != nil {
		return nil, err
	}
	payload, err := spec.Payload.Decode(rec.Arguments)
	if err != nil {
		return nil, fmt.Errorf("call %q: %w", rec.CallID, err)
	}
	return (&step{r: r, number: rec.Step}).execute(ctx, req, &PlannedCall{Record: &rec, tool: t, payload: payload})
}

// ConfirmCall asks the runtime's confirmer about req's call, as the run
// loop asks before executing it. It returns nil when the call may run,
// otherwise the result that answers it.
func (rt *Runtime) ConfirmCall(ctx context.Context, req *CallRequest) (*CallResult, error) {
	rec := req.Record
	ok, res, err := rt.confirm(ctx, req.RunID, &rec)
	if err != nil || ok {
		return nil, err
	}
	return &CallResult{Result: res, Record: rec}, nil
}

// AgentCallResult answers the call of an agent used as a tool from its
// child run's outcome, as the run loop answers it: the child's final text,
// or an error result saying the agent stopped or failed (the child's
// error stays in the call's record).
func AgentCallResult(req *CallRequest, out *RunOutput, err error) *CallResult {
	rec := req.Record
	if req.Child != nil {
		rec.ChildRunID = req.Child.State.ID
	}
	call := model.ToolCall{ID: rec.CallID, Name: rec.Name, Arguments: rec.Arguments}
	content, err := childContent(rec.Source.Agent, out, err)
	if err != nil {
		forModel, forRecord := failureTexts(err)
		rec.Error = forRecord
		return &CallResult{Result: errorResult(call, forModel), Ran: true, Record: rec}
	}
	return &CallResult{Result: model.ToolResult{CallID: call.ID, Name: call.Name, Content: content}, Ran: true, Record: rec}
}

// childContent returns the content of an agent tool call from its child
// run's outcome.
func childContent(agent string, out *RunOutput, err error) (string, error) {
	if err != nil {
		var capErr *CapError
		if errors.As(err, &capErr) {
			return "", fmt.Errorf("agent %q stopped before answering: %s", agent, capErr.Reason)
		}
		return "", &childFailure{agent: agent, err: err}
	}
	return out.Final.Text(), nil
}
