package expr

// This file checks the names a model sees at the design line that
// introduces them. A model knows a local tool by the provider-legal form of
// its identifier, computed by the runtime's own mapping
// (discovery.ModelName: "records.lookup" becomes "records_lookup"), and
// the reserved, too long and shared names are refused by the runtime's own
// checks (discovery.CheckModelName, discovery.ModelNames), which
// RegisterAgent applies too, so gen and the runtime always agree on them. Catalogs that
// exist only at run time (registries) are checked by the runtime when they
// are read.

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ident returns the tool's identifier, and false when the tool or its
// toolset has an invalid name (reported on its own).
func (t *ToolExpr) ident() (tools.Ident, bool) {
	id, err := tools.NewIdent(t.Toolset.Name, t.Name)
	return id, err == nil
}

// validateModelName checks the name a model knows the tool by
// (discovery.CheckModelName): it is none of the names the runtime and the
// providers reserve for discovery, and it fits
// discovery.MaxModelNameLength whole, since the providers that cap names
// there would otherwise receive a shortened, hashed name.
func (t *ToolExpr) validateModelName(p *problems) {
	if t.Toolset.Source != nil {
		return // an inline tool of a registry reference, rejected on its own
	}
	id, ok := t.ident()
	if !ok {
		return
	}
	if err := discovery.CheckModelName(id); err != nil {
		p.add(t, t.At, "%v", err)
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
func (a *AgentExpr) validateModelNames(p *problems) { validateUsesModelNames(p, a.Uses) }

// validateUsesModelNames checks that no two tools of the toolsets of uses
// (an agent's, or an MCP gateway's) reach the model under one name.
func validateUsesModelNames(p *problems, uses []*UseExpr) {
	var names discovery.ModelNames
	declared := map[tools.Ident]declaredTool{}
	used := map[*ToolsetExpr]bool{}
	for _, u := range uses {
		if u.Toolset == nil || u.Toolset.Source != nil || used[u.Toolset] {
			continue // registry sources are checked at run time; a repeated Use is reported on its own
		}
		used[u.Toolset] = true
		for _, t := range u.Toolset.Tools {
			id, ok := t.ident()
			if !ok {
				continue
			}
			first, ok := names.Add(id)
			if ok {
				if _, dup := declared[id]; !dup {
					declared[id] = declaredTool{tool: t, use: u}
				}
				continue
			}
			prev := declared[first]
			if prev.tool.Toolset == t.Toolset {
				continue // a duplicate tool, reported by its toolset
			}
			p.add(u, u.At, "%v", discovery.SharedModelNameError(id, first, fmt.Sprint("used at ", prev.use.At)))
		}
	}
}
