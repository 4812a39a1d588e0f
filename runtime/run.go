package runtime

// A run: one invocation of a run, built from its RunSpec by newRun, the
// one place that compiles an invocation's caps, policies and depth, for
// Run, Continue, Drive (a durable engine's invocations and every child
// run), PlanStep, ExecuteCall and Replay. The loop takes planning steps
// (step.go) until the planner answers without calls or a cap ends the run.

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// newRun returns the run of spec, driven by steps (nil for a run that
// only plans or executes one step). Its caps are spec.Caps over the
// agent's; its policy the agent's, spec.Policy and those of the agents
// above (spec.Above), under the run's labels; its MaxDepth, when zero,
// Depth plus the caps' MaxDepth.
func newRun(rt *Runtime, spec *RunSpec, steps Steps) (*run, error) {
	a, err := rt.agentNamed(spec.State.Agent)
	if err != nil {
		return nil, err
	}
	caps, err := spec.Caps.over(a.caps)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidInput, err)
	}
	var runPol *compiledPolicy // none for an invocation without a run policy
	if !spec.Policy.isZero() {
		if runPol, err = spec.Policy.compile(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidInput, err)
		}
	}
	above, err := rt.agentPolicies(spec.Above)
	if err != nil {
		return nil, err
	}
	state := spec.State.clone()
	maxDepth := spec.MaxDepth
	if maxDepth == 0 {
		maxDepth = spec.Depth + caps.MaxDepth
	}
	return &run{
		rt:         rt,
		agent:      a,
		id:         state.ID,
		parent:     state.ParentID,
		policy:     newRunPolicy(maps.Clone(state.Labels), append([]*compiledPolicy{a.policy, runPol}, above...)...),
		runPolicy:  spec.Policy,
		aboveNames: spec.Above,
		caps:       caps,
		depth:      spec.Depth,
		maxDepth:   maxDepth,
		state:      state,
		driver:     steps,
		ledger:     rt.declarer.NewLedger(),
	}, nil
}

// spec returns spec with the caps and MaxDepth the run compiled from it:
// what an engine that runs invocations itself is handed.
func (r *run) spec(spec *RunSpec) *RunSpec {
	s := *spec
	s.Caps, s.MaxDepth = r.caps, r.maxDepth
	return &s
}

// begin records the input and runs the loop.
func (r *run) begin(ctx context.Context, input []model.Message, create bool) (*RunOutput, error) {
	state := r.state
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

// declarationsKey is everything a run's declarations depend on besides the
// run's policy, which is fixed for the invocation: the step's immutable
// catalog, the model's capabilities and the revision of the run's ledger.
type declarationsKey struct {
	cat        *catalog
	caps       model.Capabilities
	discovered int
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

	// step is the planning step being taken, held here so that taking a
	// step allocates no step.
	step step

	immCatalog *catalog // the catalog immDefs were computed for
	immDefs    []model.ToolDefinition
	decl       *discovery.Declarations // the last step's, decided for declKey
	declKey    declarationsKey
}

// loop plans and executes steps until the run stops.
func (r *run) loop(parent context.Context) (*RunOutput, error) {
	parent, observation := r.rt.observer().startRun(parent, r)
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
			r.step = step{r: r, number: r.state.Steps + r.steps + 1}
			stop, err = r.step.run(ctx)
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

// extend appends msgs to the run's history and to the ledger of what it
// discovered. A discovery result that no history may hold is an error and
// extends nothing.
func (r *run) extend(msgs ...model.Message) error {
	if err := r.ledger.Append(msgs...); err != nil {
		return err
	}
	r.messages = append(r.messages, msgs...)
	return nil
}

// stepPermits is the run's permitted set of discovered tools in one step:
// the tools the step's catalog still holds as deferred tools, unchanged
// since their latest discovery, that the run's policy permits.
type stepPermits struct {
	run *run
	cat *catalog
}

// Permits reports whether the step may declare the discovered tool name.
func (p stepPermits) Permits(name string) bool {
	snap, ok := p.run.ledger.Snapshot(name)
	return ok && p.run.callable(p.cat, name, snap) != nil
}

// callable returns the catalog tool a discovered snapshot stands for, or nil
// when the step's catalog no longer holds it, holds it changed, or the run
// may not use it.
func (r *run) callable(cat *catalog, name string, snap model.ToolSnapshot) *catalogTool {
	t := cat.byName[name]
	if t == nil || !t.deferred || !discovery.SameSnapshot(t.snapshot, snap) || !r.policy.permits(t) {
		return nil
	}
	return t
}

// discoverySettings returns the request's discovery settings.
func (r *run) discoverySettings() model.Discovery {
	return model.Discovery{Enabled: r.agent.hasDeferred(), Description: r.agent.reg.DiscoveryDescription,
		ConversationCatalog: r.agent.reg.ConversationCatalog}
}
