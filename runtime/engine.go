package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Engine records runs: their history and call records. The runtime writes
// each planning step as it ends, so a stopped run can be loaded and
// continued. The default is in memory (NewMemoryEngine).
type Engine interface {
	// CreateRun records a new run. A run id recorded before is an error
	// wrapping ErrRunExists.
	CreateRun(ctx context.Context, state *RunState) error
	// AppendRun adds a step's messages and call records to a run and
	// replaces its counters and status.
	AppendRun(ctx context.Context, id string, update RunUpdate) error
	// LoadRun returns a copy of a run's state, or an error wrapping
	// ErrUnknownRun.
	LoadRun(ctx context.Context, id string) (*RunState, error)
	// ResumeRun marks a run that is not active as active and returns a
	// copy of its state, in one step: of two concurrent calls for a run,
	// one fails with an error wrapping ErrRunActive.
	ResumeRun(ctx context.Context, id string) (*RunState, error)
}

// ErrRunExists is wrapped when a run id is recorded twice.
var ErrRunExists = errors.New("runtime: run already exists")

// ErrRunActive is wrapped when a run that is running is continued.
var ErrRunActive = errors.New("runtime: run is active")

// RunStatus says where a run stands.
type RunStatus string

// Run statuses.
const (
	// RunActive: the run is planning or executing.
	RunActive RunStatus = "active"
	// RunStopped: the run stopped with Stop's reason and can be continued.
	RunStopped RunStatus = "stopped"
	// RunFailed: a step failed; the history holds every step that ended.
	RunFailed RunStatus = "failed"
)

// RunState is a recorded run: plain data that encodes to JSON and back, to
// be stored, reloaded (ImportRun) and continued.
type RunState struct {
	// ID identifies the run.
	ID string `json:"id"`
	// Agent names the agent.
	Agent string `json:"agent"`
	// ParentID identifies the run that started this one as a tool call.
	ParentID string `json:"parent_id,omitempty"`
	// Labels are the run's labels.
	Labels map[string]string `json:"labels,omitempty"`
	// Messages is the history.
	Messages []model.Message `json:"messages"`
	// Calls records every admitted call, in order.
	Calls []CallRecord `json:"calls,omitempty"`
	// Refusals records every refused call, in order.
	Refusals []Refusal `json:"refusals,omitempty"`
	// Steps counts the planning steps of all invocations.
	Steps int `json:"steps"`
	// ToolCalls counts the executed tool calls of all invocations.
	ToolCalls int `json:"tool_calls"`
	// Status says where the run stands.
	Status RunStatus `json:"status"`
	// Stop says why the run last stopped.
	Stop StopReason `json:"stop,omitempty"`
	// Error says why the run's last invocation failed: set only when
	// Status is RunFailed. It is for the application; a child run's
	// failure reaches its parent's model without it.
	Error string `json:"error,omitempty"`
}

// RunUpdate is what one step adds to a run.
type RunUpdate struct {
	// Messages are appended to the history.
	Messages []model.Message
	// Calls are appended to the call records.
	Calls []CallRecord
	// Refusals are appended to the refusals.
	Refusals []Refusal
	// Labels, when not nil, replace the run's labels.
	Labels map[string]string
	// Steps, ToolCalls, Status and Stop replace the run's.
	Steps, ToolCalls int
	// Status replaces the run's status.
	Status RunStatus
	// Stop replaces the run's stop reason.
	Stop StopReason
	// Error replaces the run's error: why the invocation failed, empty
	// unless Status is RunFailed.
	Error string
}

// MemoryEngine is an Engine in memory, safe for concurrent use.
type MemoryEngine struct {
	mu   sync.Mutex
	runs map[string]*RunState
}

// NewMemoryEngine returns an empty in-memory engine.
func NewMemoryEngine() *MemoryEngine {
	return &MemoryEngine{runs: make(map[string]*RunState)}
}

// CreateRun records a copy of state.
func (e *MemoryEngine) CreateRun(_ context.Context, state *RunState) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, dup := e.runs[state.ID]; dup {
		return fmt.Errorf("%w: %q", ErrRunExists, state.ID)
	}
	e.runs[state.ID] = state.clone()
	return nil
}

// AppendRun appends to a recorded run; its cost is that of the update, not
// of the history.
func (e *MemoryEngine) AppendRun(_ context.Context, id string, u RunUpdate) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.runs[id]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownRun, id)
	}
	s.Messages = append(s.Messages, u.Messages...)
	if u.Labels != nil {
		s.Labels = maps.Clone(u.Labels)
	}
	s.Calls = append(s.Calls, u.Calls...)
	s.Refusals = append(s.Refusals, u.Refusals...)
	s.Steps, s.ToolCalls, s.Status, s.Stop, s.Error = u.Steps, u.ToolCalls, u.Status, u.Stop, u.Error
	return nil
}

// LoadRun returns a copy of a recorded run.
func (e *MemoryEngine) LoadRun(_ context.Context, id string) (*RunState, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.runs[id]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownRun, id)
	}
	return s.clone(), nil
}

// ResumeRun marks a recorded run active and returns a copy of it.
func (e *MemoryEngine) ResumeRun(_ context.Context, id string) (*RunState, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.runs[id]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownRun, id)
	}
	if s.Status == RunActive {
		return nil, fmt.Errorf("%w: %q", ErrRunActive, id)
	}
	s.Status = RunActive
	return s.clone(), nil
}

// clone copies the state's slices and maps; messages and records are
// values that the runtime never modifies once appended.
func (s *RunState) clone() *RunState {
	c := *s
	c.Labels = maps.Clone(s.Labels)
	c.Messages = slices.Clone(s.Messages)
	c.Calls = slices.Clone(s.Calls)
	c.Refusals = slices.Clone(s.Refusals)
	return &c
}
