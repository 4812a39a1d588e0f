package expr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// UseExpr is an agent's use of a toolset or of a whole registry, with the
// Deferred declarations that choose which tools load through search.
// Deferral changes how tool definitions load, never what the agent may call.
type UseExpr struct {
	strayVersion
	// Agent is the agent that uses the source; nil for a gateway's use.
	Agent *AgentExpr
	// Gateway is the MCP gateway that serves the source; nil for an
	// agent's use.
	Gateway *MCPGatewayExpr
	// Toolset is the used toolset; nil for a whole-registry use.
	Toolset *ToolsetExpr
	// Registry is the registry used as a whole; nil for a toolset use.
	Registry *RegistryExpr
	// Deferrals are the Deferred declarations in declaration order.
	Deferrals []*Deferral
	// At is where Use was called.
	At Location

	deferAll bool
	deferred []*ToolExpr
}

// Deferral is one Deferred call: no names selects every tool of the use.
type Deferral struct {
	// Names are the selected authored tool names, empty to select all.
	Names []string
	// At is where Deferred was called.
	At Location
}

// String renders the call as written, e.g. Deferred("search", "analyze").
func (d *Deferral) String() string {
	quoted := make([]string, len(d.Names))
	for i, n := range d.Names {
		quoted[i] = strconv.Quote(n)
	}
	return "Deferred(" + strings.Join(quoted, ", ") + ")"
}

// EvalName returns the used source and the agent for error messages.
func (u *UseExpr) EvalName() string {
	if u.Gateway != nil {
		if u.Registry != nil {
			return fmt.Sprintf("Use of registry %q in MCP gateway %q", u.Registry.Name, u.Gateway.Name)
		}
		return fmt.Sprintf("Use of toolset %q in MCP gateway %q", u.Toolset.Name, u.Gateway.Name)
	}
	if u.Registry != nil {
		return fmt.Sprintf("Use of registry %q in agent %q", u.Registry.Name, u.Agent.Name)
	}
	return fmt.Sprintf("Use of toolset %q in agent %q", u.Toolset.Name, u.Agent.Name)
}

// DeferAll reports whether every tool of the source loads through search
// (a Deferred() without names). Valid after finalization.
func (u *UseExpr) DeferAll() bool { return u.deferAll }

// DeferredTools returns the local tools that load through search, in the
// order of their first selection: every tool of the toolset for Deferred(),
// the named ones otherwise. It is nil for registry and dynamic MCP sources,
// whose tools are only known at run time. Valid after finalization.
func (u *UseExpr) DeferredTools() []*ToolExpr { return u.deferred }

// isRegistrySource reports whether the use's tools are only known at run
// time: a registry, a registry toolset or a dynamic MCP toolset.
func (u *UseExpr) isRegistrySource() bool {
	return u.Registry != nil || u.Toolset.IsDynamic()
}

// sourceName names the used source in messages.
func (u *UseExpr) sourceName() string {
	if u.Registry != nil {
		return fmt.Sprintf("registry %q", u.Registry.Name)
	}
	if u.Toolset.Source != nil {
		return fmt.Sprintf("registry toolset %q", u.Toolset.Name)
	}
	if u.Toolset.IsDynamic() {
		return fmt.Sprintf("dynamic MCP toolset %q", u.Toolset.Name)
	}
	return fmt.Sprintf("toolset %q", u.Toolset.Name)
}

// validate checks the Deferred declarations of the use.
func (u *UseExpr) validate(p *problems) {
	u.strayVersion.validate(p, u)
	if u.Agent != nil && u.Toolset != nil && u.Toolset.ExportedBy == u.Agent {
		p.add(u, u.At, "an agent cannot use toolset %q that it exports itself", u.Toolset.Name)
	}
	var firstAll, firstNamed *Deferral
	seen := map[string]*Deferral{}
	for _, d := range u.Deferrals {
		if len(d.Names) == 0 {
			if firstNamed != nil {
				p.add(u, d.At, "Deferred() cannot be combined with the named selection %s at %s in the same Use: Deferred() selects every tool of %s", firstNamed, firstNamed.At, u.sourceName())
			}
			if firstAll == nil {
				firstAll = d
			}
			continue
		}
		if firstAll != nil {
			p.add(u, d.At, "%s cannot be combined with Deferred() at %s in the same Use: Deferred() already selects every tool of %s", d, firstAll.At, u.sourceName())
		}
		if firstNamed == nil {
			firstNamed = d
		}
		if u.isRegistrySource() {
			p.add(u, d.At, "named selection %s is not allowed on %s: its tools are only known at run time; use Deferred() to defer all of them", d, u.sourceName())
			continue
		}
		for _, name := range d.Names {
			u.validateName(p, d, name, seen)
		}
	}
}

// validateName checks one name of a named Deferred on a local or exported
// toolset.
func (u *UseExpr) validateName(p *problems, d *Deferral, name string, seen map[string]*Deferral) {
	if name == "" {
		p.add(u, d.At, "empty tool name in %s", d)
		return
	}
	if first, dup := seen[name]; dup {
		p.add(u, d.At, "duplicate tool %q in %s: already selected by %s at %s", name, d, first, first.At)
		return
	}
	seen[name] = d
	if u.Toolset.Tool(name) != nil {
		return
	}
	if meant := u.Toolset.modelFacingTool(name); meant != "" {
		p.add(u, d.At, "unknown tool %q in %s: %q is the name the model sees; did you mean %q? (Deferred takes the authored tool name)", name, d, name, meant)
		return
	}
	if meant := u.Toolset.meantTool(name); meant != "" {
		p.add(u, d.At, "unknown tool %q in %s: toolset %q has no tool %q; did you mean %q? (use the authored tool name exactly)", name, d, u.Toolset.Name, name, meant)
		return
	}
	p.add(u, d.At, "unknown tool %q in %s: toolset %q has tools %s", name, d, u.Toolset.Name, u.Toolset.toolList())
}

// meantTool returns the authored name of the tool that name refers to in
// another form or misspelled (see meantName), or "" when no tool is close.
func (t *ToolsetExpr) meantTool(name string) string {
	names := make([]string, len(t.Tools))
	for i, tool := range t.Tools {
		names[i] = tool.Name
	}
	return meantName(name, names)
}

// modelFacingTool returns the authored name of the tool whose model-facing
// name is name ("tickets_search_tickets" for tool "search_tickets" of
// toolset "tickets": the toolset and tool names joined by '_', '.' made
// '_'), or "" when no tool's is.
func (t *ToolsetExpr) modelFacingTool(name string) string {
	for _, tool := range t.Tools {
		if strings.ReplaceAll(t.Name+"_"+tool.Name, ".", "_") == name {
			return tool.Name
		}
	}
	return ""
}

// toolList renders the toolset's tool names sorted, for error messages.
func (t *ToolsetExpr) toolList() string {
	if len(t.Tools) == 0 {
		return "none"
	}
	names := make([]string, len(t.Tools))
	for i, tool := range t.Tools {
		names[i] = strconv.Quote(tool.Name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// finalize resolves the deferred tools of the use.
func (u *UseExpr) finalize() {
	u.deferred = nil
	u.deferAll = false
	for _, d := range u.Deferrals {
		if len(d.Names) == 0 {
			u.deferAll = true
		}
	}
	if u.isRegistrySource() {
		return
	}
	if u.deferAll {
		u.deferred = slices.Clone(u.Toolset.Tools)
		return
	}
	for _, d := range u.Deferrals {
		for _, name := range d.Names {
			if tool := u.Toolset.Tool(name); tool != nil && !slices.Contains(u.deferred, tool) {
				u.deferred = append(u.deferred, tool)
			}
		}
	}
}
