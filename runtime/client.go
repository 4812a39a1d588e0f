package runtime

// Starting and continuing runs: an AgentClient builds each invocation's
// RunSpec from its options and either runs it where the caller runs or
// hands it to an engine that runs invocations itself (Launcher).

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// AgentClient starts and continues runs of one agent. The generated
// NewClient returns one; it does no lookup until a run starts.
type AgentClient struct {
	rt    *Runtime
	agent string
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
	id := o.id
	if id == "" {
		id = newRunID()
	}
	spec := &RunSpec{State: RunState{ID: id, Agent: a.reg.Name, Labels: o.labels, Status: RunActive}, Input: messages, Create: true, Caps: o.caps, Policy: o.policy}
	r, err := newRun(c.rt, spec, memorySteps{engine: c.rt.engine})
	if err != nil {
		return nil, err
	}
	if l, ok := c.rt.engine.(Launcher); ok {
		return l.Launch(ctx, r.spec(spec))
	}
	return r.begin(ctx, spec.Input, spec.Create)
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
	recorded, err := c.rt.engine.LoadRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("continue run: %w", err)
	}
	if recorded.Agent != a.reg.Name {
		return nil, fmt.Errorf("%w: run %q belongs to agent %q, not %q", ErrInvalidInput, runID, recorded.Agent, a.reg.Name)
	}
	// A child run continued by a client stays below the runs above it.
	above, _, err := c.rt.policiesAbove(ctx, recorded)
	if err != nil {
		return nil, fmt.Errorf("continue run: %w", err)
	}
	if o.hasLabels {
		recorded.Labels = o.labels
	}
	spec := &RunSpec{State: *recorded, Input: messages, Caps: o.caps, Policy: o.policy, Above: above, Depth: len(above)}
	r, err := newRun(c.rt, spec, memorySteps{engine: c.rt.engine})
	if err != nil {
		return nil, err
	}
	if l, ok := c.rt.engine.(Launcher); ok {
		// The engine holds one invocation of a run at a time.
		return l.Launch(ctx, r.spec(spec))
	}
	state, err := c.rt.engine.ResumeRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("continue run: %w", err)
	}
	if o.hasLabels {
		state.Labels = o.labels
	}
	spec.State = *state
	return c.rt.Drive(ctx, memorySteps{engine: c.rt.engine}, spec)
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
