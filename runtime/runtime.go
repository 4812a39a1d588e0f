package runtime

import (
	"context"
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
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

// Runs: clients start and continue them (client.go); recorded runs are
// loaded and imported here.

// Client returns a client for the named agent. The agent may be registered
// later; a run of an unregistered agent fails with ErrUnknownAgent.
func (rt *Runtime) Client(agent string) *AgentClient {
	return &AgentClient{rt: rt, agent: agent}
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

// Registration: toolsets, agents and registries are registered before
// the runs that use them; each registration bumps the generation that
// cached local catalogs are built at.

// RegisterToolset registers a toolset's executor. Every tool of the schema
// needs a spec with a payload codec, every spec a tool, and a toolset name
// can be registered once.
func (rt *Runtime) RegisterToolset(reg ToolsetRegistration) error {
	ts, err := newToolset(reg)
	if err != nil {
		return err
	}
	return rt.addToolset(ts)
}

// RegisterAgent registers an agent. The toolsets of its immediate and
// deferred tools must be registered first (the generated Register of each
// toolset package, or RegisterToolset): an agent whose toolset is missing is
// refused here, with ErrInvalidRegistration, rather than at the first step
// of its first run. Registries and the agents of agent tools may come later.
// It refuses, as gen
// does and with gen's words, a local tool whose model-facing name is
// reserved for discovery ("tool.search" is "tool_search") and two local
// tools that reach the model under one name ("a_b.c" and "a.b_c").
func (rt *Runtime) RegisterAgent(ctx context.Context, reg AgentRegistration, opts ...AgentOption) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("register agent %q: %w", reg.Name, err)
	}
	a, err := newAgent(reg)
	if err != nil {
		return err
	}
	for _, o := range opts {
		o(a)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if err := rt.checkToolsetsRegistered(&a.reg); err != nil {
		return err
	}
	if _, dup := rt.agents[reg.Name]; dup {
		return fmt.Errorf("%w: agent %q", ErrAlreadyRegistered, reg.Name)
	}
	rt.agents[reg.Name] = a
	return nil
}

// checkToolsetsRegistered refuses an agent that uses a toolset nobody
// registered, naming the registration to make. rt.mu is held.
func (rt *Runtime) checkToolsetsRegistered(reg *AgentRegistration) error {
	for _, list := range [][]tools.Ident{reg.Immediate, reg.Deferred} {
		for _, id := range list {
			name := id.Toolset()
			if _, ok := rt.toolsets[name]; !ok {
				return fmt.Errorf("%w: agent %q uses toolset %q, which is not registered: register it before the agent, with the Register function of its generated toolset package (gen/toolsets/...) or Runtime.RegisterToolset", ErrInvalidRegistration, reg.Name, name)
			}
		}
	}
	return nil
}

// RegisterRegistry connects the registry a design names to a client. It
// must happen before runs that use the registry start.
func (rt *Runtime) RegisterRegistry(name string, client RegistryClient) error {
	if err := tools.ValidateName(name); err != nil {
		return fmt.Errorf("%w: registry: %w", ErrInvalidRegistration, err)
	}
	if client == nil {
		return fmt.Errorf("%w: registry %q has no client", ErrInvalidRegistration, name)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if _, dup := rt.registries[name]; dup {
		return fmt.Errorf("%w: registry %q", ErrAlreadyRegistered, name)
	}
	rt.registries[name] = client
	return nil
}

// RegisterAgentTools registers a toolset whose tools run agents and take a
// request in words: the arguments {"request": "..."}, whose request is the
// child run's user message. Agents use the toolset like any toolset
// (immediate or deferred); the named agents may be registered later, but
// before the first run of an agent that uses the toolset, whose first step
// fails otherwise.
func (rt *Runtime) RegisterAgentTools(toolsetName string, agentTools ...AgentTool) error {
	payload, err := tools.CompileSchema(agentToolPayload)
	if err != nil {
		return fmt.Errorf("agent tool payload schema: %w", err)
	}
	reg := ToolsetRegistration{
		Schema:   tools.ToolsetSchema{Name: toolsetName},
		Executor: ToolExecutorFunc(refuseDirect),
	}
	agents := make(map[tools.Ident]string, len(agentTools))
	for _, at := range agentTools {
		id, err := tools.NewIdent(toolsetName, at.Tool)
		if err != nil {
			return fmt.Errorf("%w: agent tool: %w", ErrInvalidRegistration, err)
		}
		if at.Agent == "" {
			return fmt.Errorf("%w: agent tool %q names no agent", ErrInvalidRegistration, id)
		}
		reg.Schema.Tools = append(reg.Schema.Tools, tools.ToolSchema{Name: id, Description: at.Description, Payload: agentToolPayload})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: at.Description, Payload: tools.NewTypedCodec[AgentToolRequest](payload)})
		agents[id] = at.Agent
	}
	ts, err := newToolset(reg)
	if err != nil {
		return err
	}
	ts.agents, ts.agentRequests = agents, true
	return rt.addToolset(ts)
}

// RegisterAgentToolset registers a toolset whose tools run agents and
// take the arguments their payload schemas describe. Agents use it like
// any toolset (immediate or deferred).
func (rt *Runtime) RegisterAgentToolset(reg AgentToolset) error {
	name := reg.Schema.Name
	specs := reg.Specs
	if specs == nil {
		specs = make([]tools.ToolSpec, 0, len(reg.Schema.Tools))
		for i := range reg.Schema.Tools {
			spec, err := contract.Compile(&reg.Schema.Tools[i])
			if err != nil {
				return fmt.Errorf("%w: agent toolset %q: %w", ErrInvalidRegistration, name, err)
			}
			specs = append(specs, *spec)
		}
	}
	ts, err := newToolset(ToolsetRegistration{Schema: reg.Schema, Specs: specs, Executor: ToolExecutorFunc(refuseDirect)})
	if err != nil {
		return err
	}
	agents := make(map[tools.Ident]string, len(ts.schema.Tools))
	for _, t := range ts.schema.Tools {
		agent := reg.Agents[t.Name]
		if agent == "" {
			return fmt.Errorf("%w: agent toolset %q: tool %q names no agent", ErrInvalidRegistration, name, t.Name)
		}
		agents[t.Name] = agent
	}
	for id := range reg.Agents {
		if _, ok := agents[id]; !ok {
			return fmt.Errorf("%w: agent toolset %q: agent tool %q is not a tool of the toolset", ErrInvalidRegistration, name, id)
		}
	}
	ts.agents = agents
	return rt.addToolset(ts)
}

// addToolset adds a toolset built by newToolset, refusing a second toolset
// of its name.
func (rt *Runtime) addToolset(ts *toolset) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if _, dup := rt.toolsets[ts.schema.Name]; dup {
		return fmt.Errorf("%w: toolset %q", ErrAlreadyRegistered, ts.schema.Name)
	}
	rt.toolsets[ts.schema.Name] = ts
	rt.generation++
	return nil
}

// Lookups of registrations.

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

// agentNamed returns the registered agent of that name.
func (rt *Runtime) agentNamed(name string) (*agent, error) {
	rt.mu.RLock()
	defer rt.mu.RUnlock()
	a, ok := rt.agents[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownAgent, name)
	}
	return a, nil
}

// agentPolicies returns the policies of the named agents.
func (rt *Runtime) agentPolicies(names []string) ([]*compiledPolicy, error) {
	policies := make([]*compiledPolicy, 0, len(names))
	for _, name := range names {
		a, err := rt.agentNamed(name)
		if err != nil {
			return nil, err
		}
		policies = append(policies, a.policy)
	}
	return policies, nil
}

func (rt *Runtime) registryNamed(name string) (RegistryClient, bool) {
	rt.mu.RLock()
	defer rt.mu.RUnlock()
	c, ok := rt.registries[name]
	return c, ok
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

// observer returns the runtime's observer.
func (rt *Runtime) observer() *observer {
	t := &rt.telemetry
	t.once.Do(func() { t.obs = newObserver(t.tp, t.mp, t.logger) })
	return t.obs
}
