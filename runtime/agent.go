package runtime

import (
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// AgentRegistration describes an agent to the runtime. The generated
// Register<Agent>Agent fills it from the design and the application's
// configuration.
type AgentRegistration struct {
	// Name identifies the agent in the runtime.
	Name string
	// Description says what the agent does; an agent used as a tool
	// describes itself with it.
	Description string
	// Immediate lists the local tools every request declares.
	Immediate []tools.Ident
	// Deferred lists the local tools that load through discovery.
	Deferred []tools.Ident
	// DeferredIndex, when set, is the search index of Deferred that code
	// generation precomputed: each entry named by the tool's Ident, with
	// its model-facing name as alias. Without it the runtime builds one
	// when a discovery query first needs it.
	DeferredIndex *toolsearch.Index
	// Registries lists the agent's registry sources.
	Registries []RegistrySource
	// MCPToolsets lists the dynamic MCP toolsets the agent uses.
	MCPToolsets []MCPToolset
	// Planner plans each step. Required.
	Planner Planner
	// DiscoveryDescription is appended to the discovery tool's description.
	DiscoveryDescription string
	// ConversationCatalog asks for conversation catalog mode on every
	// request of the agent (model.Discovery.ConversationCatalog): adapters
	// that emulate discovery then keep the declarations fixed and append
	// discovered tools to the conversation as catalog messages, so the
	// prompt cache keeps the whole history.
	ConversationCatalog bool
	// DiscoveryLimit caps the tools a discovery query returns; 0 means
	// DefaultDiscoveryLimit.
	DiscoveryLimit int
	// Caps bound every run of the agent; zero fields take DefaultCaps.
	Caps Caps
	// Policy applies to every run of the agent, on top of each run's own.
	Policy Policy
}

// DefaultDiscoveryLimit is how many tools a discovery query returns by
// default.
const DefaultDiscoveryLimit = 5

// AgentOption configures an agent registration.
type AgentOption func(*agent)

// WithRegistryTools lets rt choose, at every planning step, registry sources
// beyond those the design declares, from the run's labels.
func WithRegistryTools(r RegistryTools) AgentOption {
	return func(a *agent) { a.registryTools = r }
}

// agent is a registered agent.
type agent struct {
	reg           AgentRegistration
	registryTools RegistryTools
	caps          Caps
	policy        *compiledPolicy
	deferredSet   map[tools.Ident]bool
	discoveryTool model.ToolDefinition

	mu    sync.Mutex
	local *catalog // the local part, built at local.generation
}

func newAgent(reg AgentRegistration) (*agent, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: agent %q: %s", ErrInvalidRegistration, reg.Name, fmt.Sprintf(format, args...))
	}
	if reg.Name == "" {
		return nil, fmt.Errorf("%w: agent has no name", ErrInvalidRegistration)
	}
	if reg.Planner == nil {
		return nil, fail("no planner")
	}
	if reg.DiscoveryLimit < 0 {
		return nil, fail("negative discovery limit %d", reg.DiscoveryLimit)
	}
	caps, err := reg.Caps.withDefaults()
	if err != nil {
		return nil, fail("%v", err)
	}
	policy, err := reg.Policy.compile()
	if err != nil {
		return nil, fail("%v", err)
	}
	seen := make(map[tools.Ident]string)
	var names discovery.ModelNames
	deferred := make(map[tools.Ident]bool, len(reg.Deferred))
	for _, list := range []struct {
		kind string
		ids  []tools.Ident
	}{{"immediate", reg.Immediate}, {"deferred", reg.Deferred}} {
		for _, id := range list.ids {
			if err := id.Validate(); err != nil {
				return nil, fail("%s tool: %v", list.kind, err)
			}
			if prev, dup := seen[id]; dup {
				return nil, fail("tool %q is listed as %s and %s", id, prev, list.kind)
			}
			seen[id] = list.kind
			// The names gen refuses, in gen's words: every run would fail.
			if err := discovery.CheckModelName(id); err != nil {
				return nil, fail("%s tool %q: %v", list.kind, id, err)
			}
			if first, ok := names.Add(id); !ok {
				return nil, fail("%v", discovery.SharedModelNameError(id, first, ""))
			}
			if list.kind == "deferred" {
				deferred[id] = true
			}
		}
	}
	for i, src := range reg.Registries {
		if err := src.validate(); err != nil {
			return nil, fail("registry source %d: %v", i, err)
		}
	}
	reg.Immediate = append([]tools.Ident(nil), reg.Immediate...)
	reg.Deferred = append([]tools.Ident(nil), reg.Deferred...)
	reg.Registries = append([]RegistrySource(nil), reg.Registries...)
	for i, m := range reg.MCPToolsets {
		src, err := m.source()
		if err != nil {
			return nil, fail("MCP toolset %d: %v", i, err)
		}
		reg.Registries = append(reg.Registries, src)
	}
	reg.MCPToolsets = append([]MCPToolset(nil), reg.MCPToolsets...)
	return &agent{
		reg:           reg,
		caps:          caps,
		policy:        policy,
		deferredSet:   deferred,
		discoveryTool: discovery.Tool(reg.DiscoveryDescription),
	}, nil
}

// hasDeferred reports whether the agent may have deferred tools, so its
// requests declare the discovery tool.
func (a *agent) hasDeferred() bool {
	if len(a.reg.Deferred) > 0 || a.registryTools != nil {
		return true
	}
	for _, src := range a.reg.Registries {
		if src.Deferred {
			return true
		}
	}
	return false
}
