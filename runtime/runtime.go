package runtime

import (
	"context"
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Runtime holds the registered toolsets, agents and registries and runs
// agents. It is safe for concurrent use: registrations and runs may happen
// from many goroutines, and concurrent runs share nothing but the
// registrations and immutable catalogs.
type Runtime struct {
	engine    Engine
	confirmer Confirmer
	telemetry telemetry // spans, metrics and logs (observe.go)

	mu sync.RWMutex
	// generation counts registrations; a cached local catalog built at
	// another generation is rebuilt.
	generation uint64
	toolsets   map[string]*toolset
	agents     map[string]*agent
	registries map[string]RegistryClient

	registryParts catalogCache // registry catalog parts by version
	// declarer remembers the schemas that every run's declarations
	// checked, so that a tool declared on every step is compiled once.
	declarer discovery.Declarer
}

// Option configures a Runtime.
type Option func(*Runtime)

// WithEngine records runs in e instead of the default in-memory engine.
func WithEngine(e Engine) Option { return func(rt *Runtime) { rt.engine = e } }

// WithConfirmer asks c before executing any call whose tool's contract
// requires confirmation. Without a confirmer such calls are refused.
func WithConfirmer(c Confirmer) Option { return func(rt *Runtime) { rt.confirmer = c } }

// New returns a runtime with an in-memory engine unless WithEngine says
// otherwise.
func New(opts ...Option) *Runtime {
	rt := &Runtime{
		toolsets:   make(map[string]*toolset),
		agents:     make(map[string]*agent),
		registries: make(map[string]RegistryClient),
	}
	for _, o := range opts {
		o(rt)
	}
	if rt.engine == nil {
		rt.engine = NewMemoryEngine()
	}
	return rt
}

// Engine returns the engine that records the runtime's runs.
func (rt *Runtime) Engine() Engine { return rt.engine }

// Confirmer approves calls of tools whose contract requires confirmation.
type Confirmer interface {
	// Confirm returns whether the call may run. A false answer is reported
	// to the model as a declined call; an error ends the run.
	Confirm(ctx context.Context, req ConfirmationRequest) (bool, error)
}

// ConfirmerFunc adapts a function to Confirmer.
type ConfirmerFunc func(ctx context.Context, req ConfirmationRequest) (bool, error)

// Confirm calls f.
func (f ConfirmerFunc) Confirm(ctx context.Context, req ConfirmationRequest) (bool, error) {
	return f(ctx, req)
}

// ConfirmationRequest is a call waiting for confirmation.
type ConfirmationRequest struct {
	// RunID is the run making the call.
	RunID string
	// Call is the admitted call, bound to its definition.
	Call CallRecord
	// Title is the confirmation's title from the tool's contract.
	Title string
	// Text is the confirmation template rendered over the call's arguments.
	Text string
}

// confirm asks the runtime's confirmer about an admitted call of run runID
// whose recorded definition requires confirmation. ok is false with the
// result to send when the call must not run.
func (rt *Runtime) confirm(ctx context.Context, runID string, rec *CallRecord) (ok bool, res model.ToolResult, err error) {
	title, text, needed, err := rec.Confirmation()
	if !needed {
		return true, res, nil
	}
	call := rec.toolCall()
	if err != nil {
		return false, errorResult(call, "The call's confirmation cannot be shown: "+err.Error()), nil
	}
	if rt.confirmer == nil {
		return false, errorResult(call, "This call needs confirmation, and this run cannot ask for it."), nil
	}
	yes, err := rt.confirmer.Confirm(ctx, ConfirmationRequest{RunID: runID, Call: *rec, Title: title, Text: text})
	if err != nil {
		return false, res, fmt.Errorf("confirm: %w", err)
	}
	if !yes {
		return false, errorResult(call, "The call was declined."), nil
	}
	return true, res, nil
}

// toolsetNamed returns the registered toolset of that name.
func (rt *Runtime) toolsetNamed(name string) (*toolset, bool) {
	rt.mu.RLock()
	defer rt.mu.RUnlock()
	ts, ok := rt.toolsets[name]
	return ts, ok
}

// toolsetOf returns the registered toolset holding id.
func (rt *Runtime) toolsetOf(id tools.Ident) (*toolset, bool) {
	return rt.toolsetNamed(id.Toolset())
}
