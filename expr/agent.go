package expr

import (
	"fmt"

	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"
)

// AgentExpr is an agent declared inside a Goa service: the toolsets and
// registries it uses and the toolsets it exports.
type AgentExpr struct {
	eval.DSLFunc
	metaHolder
	strayVersion
	// Name is the agent name, unique in its service.
	Name string
	// Description says what the agent does.
	Description string
	// Service is the Goa service that declares the agent.
	Service *goaexpr.ServiceExpr
	// Uses lists the toolsets and registries the agent uses, in declaration
	// order.
	Uses []*UseExpr
	// Exports lists the toolsets whose tools run this agent.
	Exports []*ExportExpr
	// At is where the agent is declared.
	At Location
}

// EvalName returns the agent and service names for error messages.
func (a *AgentExpr) EvalName() string {
	return fmt.Sprintf("agent %q of service %q", a.Name, a.Service.Name)
}

// validate checks the agent, its exports and its uses.
func (a *AgentExpr) validate(p *problems) {
	if err := CheckName(a.Name); err != nil {
		p.add(a, a.At, "agent name: %v", err)
	}
	if a.Description == "" {
		p.add(a, a.At, "empty description")
	}
	a.strayVersion.validate(p, a)
	exported := make(map[*ToolsetExpr]*ExportExpr, len(a.Exports))
	for _, e := range a.Exports {
		if e.Toolset != nil {
			if first, dup := exported[e.Toolset]; dup {
				p.add(e, e.At, "toolset %q is already exported by this agent (at %s)", e.Toolset.Name, first.At)
				continue
			}
			exported[e.Toolset] = e
		}
		e.validate(p)
	}
	for _, u := range a.Uses {
		u.validate(p)
	}
	a.validateSources(p)
	a.validateMCPServers(p)
	a.validateModelNames(p)
}

// sourceOverlap tracks the sources an agent has used so far.
type sourceOverlap struct {
	toolsets map[*ToolsetExpr]*UseExpr
	whole    map[*RegistryExpr]*UseExpr
	remote   map[remoteToolset]*UseExpr
	mcp      map[mcpToolset]*UseExpr
	ordered  []*UseExpr // uses of registry toolsets, in declaration order
}

// remoteToolset identifies a toolset in a registry.
type remoteToolset struct {
	registry *RegistryExpr
	name     string
}

// mcpToolset identifies a toolset of an MCP server.
type mcpToolset struct {
	server, name string
}

// validateSources rejects duplicate and overlapping sources: the same
// toolset used twice, a registry used whole next to one of its toolsets, and
// the same registry or MCP toolset reached through two declarations. Each error is
// reported at the later Use.
func (a *AgentExpr) validateSources(p *problems) {
	seen := sourceOverlap{
		toolsets: map[*ToolsetExpr]*UseExpr{},
		whole:    map[*RegistryExpr]*UseExpr{},
		remote:   map[remoteToolset]*UseExpr{},
		mcp:      map[mcpToolset]*UseExpr{},
	}
	for _, u := range a.Uses {
		if reg := u.Registry; reg != nil {
			if first, dup := seen.whole[reg]; dup {
				p.add(u, u.At, "registry %q is already used by this agent (at %s)", reg.Name, first.At)
				continue
			}
			for _, other := range seen.ordered {
				if other.Toolset.Source.Registry == reg {
					p.add(u, u.At, "Use of registry %q as a whole overlaps the Use of its toolset %q at %s", reg.Name, other.Toolset.Name, other.At)
				}
			}
			seen.whole[reg] = u
			continue
		}
		ts := u.Toolset
		if first, dup := seen.toolsets[ts]; dup {
			p.add(u, u.At, "toolset %q is already used by this agent (at %s)", ts.Name, first.At)
			continue
		}
		seen.toolsets[ts] = u
		if src := ts.MCP; src != nil {
			key := mcpToolset{server: src.Server, name: src.Toolset}
			if first, dup := seen.mcp[key]; dup {
				p.add(u, u.At, "toolset %q reaches toolset %q of MCP server %q, already used through toolset %q at %s",
					ts.Name, key.name, key.server, first.Toolset.Name, first.At)
				continue
			}
			seen.mcp[key] = u
			continue
		}
		if ts.Source == nil || ts.Source.Registry == nil {
			continue
		}
		reg := ts.Source.Registry
		if whole, ok := seen.whole[reg]; ok {
			p.add(u, u.At, "Use of toolset %q overlaps the Use of its whole registry %q at %s", ts.Name, reg.Name, whole.At)
		}
		key := remoteToolset{registry: reg, name: ts.Source.Toolset}
		if first, dup := seen.remote[key]; dup {
			p.add(u, u.At, "toolset %q reaches registry toolset %q of registry %q, already used through toolset %q at %s",
				ts.Name, key.name, reg.Name, first.Toolset.Name, first.At)
			continue
		}
		seen.remote[key] = u
		seen.ordered = append(seen.ordered, u)
	}
}

// ExportExpr is a toolset an agent exports: its tools run the agent, and other
// agents Use the toolset like any other.
type ExportExpr struct {
	strayVersion
	// Agent is the exporting agent.
	Agent *AgentExpr
	// Toolset is the exported toolset; nil when a registry was given.
	Toolset *ToolsetExpr
	// Registry is set when a registry was given to Export, which validation
	// rejects.
	Registry *RegistryExpr
	// At is where Export was called.
	At Location
}

// EvalName returns the export and agent names for error messages.
func (e *ExportExpr) EvalName() string {
	if e.Registry != nil {
		return fmt.Sprintf("Export of registry %q in agent %q", e.Registry.Name, e.Agent.Name)
	}
	return fmt.Sprintf("Export of toolset %q in agent %q", e.Toolset.Name, e.Agent.Name)
}

// validate rejects exports of registry references and toolsets exported by
// two agents.
func (e *ExportExpr) validate(p *problems) {
	e.strayVersion.validate(p, e)
	switch {
	case e.Registry != nil:
		p.add(e, e.At, "registry %q cannot be exported: an export is a local toolset whose tools run the agent", e.Registry.Name)
	case e.Toolset.Source != nil:
		p.add(e, e.At, "registry toolset %q cannot be exported: an export is a local toolset whose tools run the agent", e.Toolset.Name)
	case e.Toolset.MCP != nil:
		p.add(e, e.At, "MCP toolset %q cannot be exported: an export is a local toolset whose tools run the agent", e.Toolset.Name)
	case e.Toolset.ExportedBy != nil && e.Toolset.ExportedBy != e.Agent:
		p.add(e, e.At, "toolset %q is already exported by agent %q (at %s)", e.Toolset.Name, e.Toolset.ExportedBy.Name, exportAt(e.Toolset))
	}
}

// exportAt returns where the exporting agent of ts exports it.
func exportAt(ts *ToolsetExpr) Location {
	for _, e := range ts.ExportedBy.Exports {
		if e.Toolset == ts {
			return e.At
		}
	}
	return Location{}
}
