package expr

// This file checks the names a model sees at the design line that
// introduces them. A model knows a local tool by the provider-legal form of
// its identifier, computed by the runtime's own mapping
// (discovery.PortableName: "records.lookup" becomes "records_lookup"), so
// gen and the runtime always agree on it. Catalogs that exist only at run
// time (registries) are checked by the runtime when they are read.

import (
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// modelName returns the name a model knows the tool by, and false when the
// tool or its toolset has an invalid name (reported on its own).
func (t *ToolExpr) modelName() (string, bool) {
	id, err := tools.NewIdent(t.Toolset.Name, t.Name)
	if err != nil {
		return "", false
	}
	return discovery.PortableName(string(id)), true
}

// validateModelName checks the name a model knows the tool by: it is none of
// the names the runtime and the providers reserve for discovery, and it fits
// MaxNameLength whole, since the providers that cap names there would
// otherwise receive a shortened, hashed name.
func (t *ToolExpr) validateModelName(p *problems) {
	if t.Toolset.Source != nil {
		return // an inline tool of a registry reference, rejected on its own
	}
	name, ok := t.modelName()
	if !ok {
		return
	}
	if discovery.IsReserved(name) {
		p.add(t, t.At, "the model knows this tool as %q, a name reserved for tool discovery (reserved: %s); rename the tool or its toolset",
			name, strings.Join(discovery.ReservedNames(), ", "))
	}
	if len(name) > MaxNameLength {
		p.add(t, t.At, "the model knows this tool as %q, %d characters long; toolset name, '_' and tool name together must fit in %d",
			name, len(name), MaxNameLength)
	}
}

// declaredTool is a tool an agent can declare to a model and the Use that
// brings it.
type declaredTool struct {
	tool *ToolExpr
	use  *UseExpr
}

// validateModelNames checks that no two tools the agent can declare to a
// model (immediate and deferred tools of its local uses, exported agents'
// tools included) reach the model under one name: "a_b.c" and "a.b_c" are
// both "a_b_c". The error is reported at the later Use. The discovery tool's
// name is reserved, so no tool takes it (validateModelName).
func (a *AgentExpr) validateModelNames(p *problems) {
	seen := map[string]declaredTool{}
	used := map[*ToolsetExpr]bool{}
	for _, u := range a.Uses {
		if u.Toolset == nil || u.Toolset.Source != nil || used[u.Toolset] {
			continue // registry sources are checked at run time; a repeated Use is reported on its own
		}
		used[u.Toolset] = true
		for _, t := range u.Toolset.Tools {
			name, ok := t.modelName()
			if !ok {
				continue
			}
			first, dup := seen[name]
			if !dup {
				seen[name] = declaredTool{tool: t, use: u}
				continue
			}
			if first.tool.Toolset == t.Toolset {
				continue // a duplicate tool, reported by its toolset
			}
			p.add(u, u.At, "%s and %s (used at %s) both reach the model as %q; rename one",
				t.EvalName(), first.tool.EvalName(), first.use.At, name)
		}
	}
}
