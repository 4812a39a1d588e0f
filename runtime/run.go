package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// AgentClient starts and continues runs of one agent. The generated
// NewClient returns one; it does no lookup until a run starts.
type AgentClient struct {
	rt    *Runtime
	agent string
}

// Client returns a client for the named agent. The agent may be registered
// later; a run of an unregistered agent fails with ErrUnknownAgent.
func (rt *Runtime) Client(agent string) *AgentClient {
	return &AgentClient{rt: rt, agent: agent}
}

// RunOption configures one invocation of a run.
type RunOption func(*runOptions)

type runOptions struct {
	id        string
	labels    map[string]string
	hasLabels bool
	policy    Policy
	caps      Caps
}

// WithRunID gives a new run its id instead of a random one.
func WithRunID(id string) RunOption { return func(o *runOptions) { o.id = id } }

// WithLabels sets the run's labels. A continued run keeps its recorded
// labels unless this option replaces them.
func WithLabels(labels map[string]string) RunOption {
	return func(o *runOptions) { o.labels, o.hasLabels = maps.Clone(labels), true }
}

// WithPolicy restricts the tools of this invocation, on top of the agent's
// policy.
func WithPolicy(p Policy) RunOption { return func(o *runOptions) { o.policy = p } }

// WithCaps sets this invocation's caps; zero fields take the agent's.
func WithCaps(c Caps) RunOption { return func(o *runOptions) { o.caps = c } }

// RunOutput is the outcome of one invocation of a run.
type RunOutput struct {
	// RunID identifies the run.
	RunID string
	// Messages is the whole history.
	Messages []model.Message
	// Final is the last assistant message, or the zero message when the
	// run has none.
	Final model.Message
	// Calls are the calls this invocation executed, bound to their
	// definitions.
	Calls []CallRecord
	// Refusals are the calls this invocation refused: answered with an
	// error result, never executed.
	Refusals []Refusal
	// Steps counts this invocation's planning steps.
	Steps int
	// ToolCalls counts this invocation's executed tool calls.
	ToolCalls int
	// Usage adds up the planner's token usage.
	Usage model.Usage
	// Stop says why the run stopped; empty when a step failed.
	Stop StopReason
}

// Run starts a run with the given system and user messages. It returns the
// output and, when a cap ended the run, a *CapError; when a step fails, the
// output so far and the error.
func (c *AgentClient) Run(ctx context.Context, messages []model.Message, opts ...RunOption) (*RunOutput, error) {
	o := collect(opts)
	a, err := c.rt.agentNamed(c.agent)
	if err != nil {
		return nil, err
	}
	if len(messages) == 0 {
		return nil, fmt.Errorf("%w: a run starts with at least one message", ErrInvalidInput)
	}
	if err := checkInput(messages); err != nil {
		return nil, err
	}
	caps, runPol, err := o.settings(a)
	if err != nil {
		return nil, err
	}
	id := o.id
	if id == "" {
		id = newRunID()
	}
	state := &RunState{ID: id, Agent: a.reg.Name, Labels: o.labels, Status: RunActive}
	if l, ok := c.rt.engine.(Launcher); ok {
		return l.Launch(ctx, &RunSpec{State: *state, Input: messages, Create: true, Caps: caps, Policy: o.policy, MaxDepth: caps.MaxDepth})
	}
	return c.rt.start(ctx, a, state, messages, invocation{caps: caps, runPolicy: runPol, policy: o.policy}, true)
}

// Continue appends messages to a recorded run and runs it on. One
// invocation of a run runs at a time: continuing an active run fails with
// an error wrapping ErrRunActive. A child run (an agent used as a tool)
// continued this way stays below the runs above it: the policies of their
// agents hold, and it fails when one of those runs is not recorded or its
// agent is not registered. The run policies of their invocations are not
// recorded; WithPolicy gives this invocation's.
func (c *AgentClient) Continue(ctx context.Context, runID string, messages []model.Message, opts ...RunOption) (*RunOutput, error) {
	o := collect(opts)
	a, err := c.rt.agentNamed(c.agent)
	if err != nil {
		return nil, err
	}
	if err := checkInput(messages); err != nil {
		return nil, err
	}
	caps, runPol, err := o.settings(a)
	if err != nil {
		return nil, err
	}
	recorded, err := c.rt.engine.LoadRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("continue run: %w", err)
	}
	if recorded.Agent != a.reg.Name {
		return nil, fmt.Errorf("%w: run %q belongs to agent %q, not %q", ErrInvalidInput, runID, recorded.Agent, a.reg.Name)
	}
	// A child run continued by a client stays below the runs above it.
	aboveNames, above, err := c.rt.policiesAbove(ctx, recorded)
	if err != nil {
		return nil, fmt.Errorf("continue run: %w", err)
	}
	depth := len(aboveNames)
	if l, ok := c.rt.engine.(Launcher); ok {
		// The engine holds one invocation of a run at a time.
		if o.hasLabels {
			recorded.Labels = o.labels
		}
		return l.Launch(ctx, &RunSpec{State: *recorded, Input: messages, Caps: caps, Policy: o.policy, Above: aboveNames, Depth: depth, MaxDepth: depth + caps.MaxDepth})
	}
	state, err := c.rt.engine.ResumeRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("continue run: %w", err)
	}
	if o.hasLabels {
		state.Labels = o.labels
	}
	return c.rt.start(ctx, a, state, messages, invocation{caps: caps, runPolicy: runPol, policy: o.policy, above: above, aboveNames: aboveNames, depth: depth}, false)
}

// LoadRun returns a recorded run.
func (rt *Runtime) LoadRun(ctx context.Context, id string) (*RunState, error) {
	return rt.engine.LoadRun(ctx, id)
}

// ImportRun records a run stored elsewhere (for example a RunState decoded
// from JSON), so that Continue can run it on. Its history must pass
// discovery.ValidateHistory, which also requires every call answered. A
// child run's parent must be recorded first.
func (rt *Runtime) ImportRun(ctx context.Context, state *RunState) error {
	if state.ID == "" || state.Agent == "" {
		return fmt.Errorf("%w: imported run needs an id and an agent", ErrInvalidInput)
	}
	switch state.Status {
	case "", RunActive, RunStopped, RunFailed:
	default:
		return fmt.Errorf("%w: imported run %q: unknown status %q", ErrInvalidInput, state.ID, state.Status)
	}
	switch state.Stop {
	case "", StopCompleted, StopMaxSteps, StopMaxToolCalls, StopMaxDepth, StopTimeBudget:
	default:
		return fmt.Errorf("%w: imported run %q: unknown stop reason %q", ErrInvalidInput, state.ID, state.Stop)
	}
	if state.Error != "" && state.Status != RunFailed {
		return fmt.Errorf("%w: imported run %q: an error recorded with status %q", ErrInvalidInput, state.ID, state.Status)
	}
	if state.Steps < 0 || state.ToolCalls < 0 {
		return fmt.Errorf("%w: imported run %q: negative counters", ErrInvalidInput, state.ID)
	}
	if err := discovery.ValidateHistory(state.Messages); err != nil {
		return fmt.Errorf("%w: imported run %q: %w", ErrInvalidInput, state.ID, err)
	}
	if state.ParentID != "" {
		// A child run is continued and replayed under the policies of the
		// runs above it, so they are imported first.
		if _, err := rt.engine.LoadRun(ctx, state.ParentID); err != nil {
			return fmt.Errorf("%w: imported run %q: its parent run %q: %w", ErrInvalidInput, state.ID, state.ParentID, err)
		}
	}
	s := state.clone()
	if s.Status == RunActive || s.Status == "" {
		s.Status = RunStopped
	}
	return rt.engine.CreateRun(ctx, s)
}

func collect(opts []RunOption) runOptions {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// checkInput accepts system and user messages only: the runtime writes every
// other message itself.
func checkInput(msgs []model.Message) error {
	if err := model.ValidateMessages(msgs); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidInput, err)
	}
	for i, m := range msgs {
		if m.Role != model.RoleSystem && m.Role != model.RoleUser {
			return fmt.Errorf("%w: message %d has role %q; a run takes system and user messages", ErrInvalidInput, i, m.Role)
		}
	}
	return nil
}

func newRunID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return "run-" + hex.EncodeToString(b[:])
}

// settings returns the caps and compiled run policy of an invocation.
func (o *runOptions) settings(a *agent) (Caps, *compiledPolicy, error) {
	caps, err := o.caps.over(a.caps)
	if err != nil {
		return Caps{}, nil, fmt.Errorf("%w: %w", ErrInvalidInput, err)
	}
	runPol, err := o.policy.compile()
	if err != nil {
		return Caps{}, nil, fmt.Errorf("%w: %w", ErrInvalidInput, err)
	}
	return caps, runPol, nil
}

// invocation is what one invocation of a run runs under.
type invocation struct {
	caps      Caps
	runPolicy *compiledPolicy
	policy    Policy // runPolicy before it was compiled
	// parent is the run whose agent tool call starts this one, nil for an
	// invocation by a client.
	parent *run
	// above holds, for a child run continued by a client, the policies of
	// the agents of the runs above it, aboveNames those agents; depth
	// counts those runs.
	above      []*compiledPolicy
	aboveNames []string
	depth      int
}

// start records the input and runs the loop where the caller runs.
func (rt *Runtime) start(ctx context.Context, a *agent, state *RunState, input []model.Message, inv invocation, create bool) (*RunOutput, error) {
	r := rt.newRun(a, state, inv)
	if p := inv.parent; p != nil {
		r.policy = p.policy.child(a)
		r.runPolicy = p.runPolicy
		r.aboveNames = append([]string{p.agent.reg.Name}, p.aboveNames...)
		r.depth = p.depth + 1
		r.maxDepth = min(p.maxDepth, r.depth+inv.caps.MaxDepth)
	}
	return r.begin(ctx, input, create)
}

// newRun returns the run of an invocation, driven by the engine's steps.
func (rt *Runtime) newRun(a *agent, state *RunState, inv invocation) *run {
	return &run{
		rt:         rt,
		agent:      a,
		id:         state.ID,
		parent:     state.ParentID,
		policy:     newRunPolicy(maps.Clone(state.Labels), append([]*compiledPolicy{a.policy, inv.runPolicy}, inv.above...)...),
		runPolicy:  inv.policy,
		aboveNames: inv.aboveNames,
		caps:       inv.caps,
		depth:      inv.depth,
		maxDepth:   inv.depth + inv.caps.MaxDepth,
		state:      state,
		driver:     memorySteps{engine: rt.engine},
	}
}

// begin records the input and runs the loop.
func (r *run) begin(ctx context.Context, input []model.Message, create bool) (*RunOutput, error) {
	state := r.state
	r.ledger = r.rt.declarer.NewLedger()
	if err := r.ledger.Append(state.Messages...); err != nil {
		err = fmt.Errorf("run %q: recorded history: %w", r.id, err)
		if !create {
			// The run was resumed: record that this invocation failed, so
			// that the run is not left active.
			failed := RunUpdate{Steps: state.Steps, ToolCalls: state.ToolCalls, Status: RunFailed, Error: err.Error()}
			if perr := r.driver.AppendRun(context.WithoutCancel(ctx), r.id, failed); perr != nil {
				err = errors.Join(err, fmt.Errorf("record the failure: %w", perr))
			}
		}
		return nil, err
	}
	r.messages = state.Messages
	if err := r.extend(input...); err != nil {
		return nil, fmt.Errorf("run %q: %w", r.id, err)
	}
	update := RunUpdate{Messages: input, Labels: state.Labels, Steps: state.Steps, ToolCalls: state.ToolCalls, Status: RunActive}
	if create {
		state.Messages = nil
		if err := r.driver.CreateRun(ctx, state); err != nil {
			return nil, fmt.Errorf("start run: %w", err)
		}
	}
	if err := r.driver.AppendRun(ctx, r.id, update); err != nil {
		return nil, fmt.Errorf("run %q: %w", r.id, err)
	}
	return r.loop(ctx)
}

// run is one invocation of a run. It belongs to one goroutine.
type run struct {
	rt     *Runtime
	agent  *agent
	id     string
	parent string
	policy *runPolicy
	caps   Caps
	state  *RunState // as loaded; counters of earlier invocations
	driver Steps     // the engine's side of each step
	// runPolicy is the invocation's run policy (a child run's: its
	// parent's) and aboveNames the agents of the runs above, for steps
	// that run elsewhere.
	runPolicy  Policy
	aboveNames []string
	// depth counts the agent tool calls from the run a client started to
	// this one; maxDepth is the deepest a child run of this one may be.
	depth, maxDepth int

	messages []model.Message
	ledger   *discovery.Ledger // what messages discovered
	calls    []CallRecord      // executed by this invocation
	refusals []Refusal         // refused by this invocation
	steps    int
	executed int
	usage    model.Usage

	failure string // why the invocation failed, recorded with the run

	immCatalog *catalog // the catalog immDefs were computed for
	immDefs    []model.ToolDefinition
	decl       *discovery.Declarations // the last step's, decided for declKey
	declKey    declarationsKey
}

// loop plans and executes steps until the run stops.
func (r *run) loop(parent context.Context) (*RunOutput, error) {
	parent, observation := r.observeRun(parent)
	ctx, cancel := r.driver.Bound(parent, r.caps.MaxDuration)
	defer cancel()
	var stop StopReason
	var err error
	for stop == "" && err == nil {
		switch {
		case ctx.Err() != nil:
			stop, err = r.ended(ctx)
		case r.steps >= r.caps.MaxSteps:
			stop = StopMaxSteps
		default:
			stop, err = r.observedStep(ctx)
		}
	}
	status := RunStopped
	if stop == "" {
		status = RunFailed
		r.failure = err.Error()
	}
	if perr := r.persist(ctx, nil, nil, nil, status, stop); perr != nil && err == nil {
		err = perr
	}
	observation.end(stop, err)
	out := r.output(stop)
	if err != nil {
		return out, err
	}
	if stop != StopCompleted {
		return out, &CapError{RunID: r.id, Reason: stop, Limit: r.limit(stop)}
	}
	return out, nil
}

// ended returns the stop reason of a run whose context ended: the time cap,
// or the caller's cancellation as an error.
func (r *run) ended(ctx context.Context) (StopReason, error) {
	if errors.Is(context.Cause(ctx), errTimeBudget) {
		return StopTimeBudget, nil
	}
	return "", fmt.Errorf("run %q: %w", r.id, context.Cause(ctx))
}

func (r *run) limit(stop StopReason) string {
	switch stop {
	case StopMaxSteps:
		return fmt.Sprintf("%d steps", r.caps.MaxSteps)
	case StopMaxToolCalls:
		return fmt.Sprintf("%d tool calls", r.caps.MaxToolCalls)
	case StopMaxDepth:
		return fmt.Sprintf("depth %d", r.maxDepth)
	case StopTimeBudget:
		return r.caps.MaxDuration.String()
	}
	return ""
}

// persist records a step's messages, calls and refusals with the run's counters.
func (r *run) persist(ctx context.Context, msgs []model.Message, calls []CallRecord, refusals []Refusal, status RunStatus, stop StopReason) error {
	err := r.driver.AppendRun(context.WithoutCancel(ctx), r.id, RunUpdate{
		Messages:  msgs,
		Calls:     calls,
		Refusals:  refusals,
		Steps:     r.state.Steps + r.steps,
		ToolCalls: r.state.ToolCalls + r.executed,
		Status:    status,
		Stop:      stop,
		Error:     r.failure,
	})
	if err != nil {
		return fmt.Errorf("run %q: record step: %w", r.id, err)
	}
	return nil
}

func (r *run) output(stop StopReason) *RunOutput {
	out := &RunOutput{
		RunID:     r.id,
		Messages:  r.messages,
		Calls:     r.calls,
		Refusals:  r.refusals,
		Steps:     r.steps,
		ToolCalls: r.executed,
		Usage:     r.usage,
		Stop:      stop,
	}
	for i := len(r.messages) - 1; i >= 0; i-- {
		if r.messages[i].Role == model.RoleAssistant {
			out.Final = r.messages[i]
			break
		}
	}
	return out
}
