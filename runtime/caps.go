package runtime

import (
	"errors"
	"fmt"
	"time"
)

// Caps bound one invocation of a run (Run or Continue). A zero field takes
// the agent's value, and the agent's zero fields take DefaultCaps.
type Caps struct {
	// MaxSteps bounds the planning steps.
	MaxSteps int
	// MaxToolCalls bounds the tool calls executed. Discovery calls do not
	// count.
	MaxToolCalls int
	// MaxDuration bounds the wall-clock time.
	MaxDuration time.Duration
	// MaxDepth bounds how deep agents used as tools nest below the run: a
	// run's child runs are one level below it, theirs two. A child run
	// gets its own agent's MaxDepth, counted from it, within what its
	// parent has left, so no agent below a run can deepen the run's bound.
	// A call that would start a child run deeper than the bound is
	// answered with an error result and stops its run with StopMaxDepth.
	MaxDepth int
}

// DefaultCaps are the caps of an agent that sets none.
var DefaultCaps = Caps{MaxSteps: 32, MaxToolCalls: 128, MaxDuration: 10 * time.Minute, MaxDepth: 8}

// withDefaults fills zero fields from DefaultCaps and refuses negative ones.
func (c Caps) withDefaults() (Caps, error) {
	return c.over(DefaultCaps)
}

// over fills c's zero fields from base and refuses negative ones.
func (c Caps) over(base Caps) (Caps, error) {
	if c.MaxSteps < 0 || c.MaxToolCalls < 0 || c.MaxDuration < 0 || c.MaxDepth < 0 {
		return Caps{}, fmt.Errorf("negative cap in %+v", c)
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = base.MaxSteps
	}
	if c.MaxToolCalls == 0 {
		c.MaxToolCalls = base.MaxToolCalls
	}
	if c.MaxDuration == 0 {
		c.MaxDuration = base.MaxDuration
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = base.MaxDepth
	}
	return c, nil
}

// StopReason says why a run stopped.
type StopReason string

// Stop reasons.
const (
	// StopCompleted: the planner answered without calls.
	StopCompleted StopReason = "completed"
	// StopMaxSteps: the run used its planning steps.
	StopMaxSteps StopReason = "max_steps"
	// StopMaxToolCalls: the model asked for more tool calls than the run
	// had left; the calls past the cap were answered with error results.
	StopMaxToolCalls StopReason = "max_tool_calls"
	// StopMaxDepth: the model called an agent tool whose child run would
	// nest deeper than the run's MaxDepth; the call was answered with an
	// error result.
	StopMaxDepth StopReason = "max_depth"
	// StopTimeBudget: the run used its time.
	StopTimeBudget StopReason = "time_budget"
)

// CapError reports a run ended by a cap. Its history stays valid (every
// call answered) and recorded, so the run can be continued.
type CapError struct {
	// RunID identifies the run.
	RunID string
	// Reason is the cap that ended the run.
	Reason StopReason
	// Limit is the cap's value ("8 steps", "20 tool calls", "depth 8",
	// "30s").
	Limit string
}

// Error says which cap ended which run.
func (e *CapError) Error() string {
	return fmt.Sprintf("runtime: run %s stopped: %s (%s)", e.RunID, e.Reason, e.Limit)
}

// Is makes every *CapError match ErrCapExceeded.
func (e *CapError) Is(target error) bool { return target == ErrCapExceeded }

// errTimeBudget is the cause of a run context ended by MaxDuration.
var errTimeBudget = errors.New("runtime: run time budget used")
