package expr

import goaexpr "goa.design/goa/v3/expr"

// validateUniqueNames checks that registry and toolset names are unique in
// the design and agent names unique in their service, and that registry
// names are valid (agent, toolset and tool names are checked by their own
// expressions).
func (r *RootExpr) validateUniqueNames(p *problems) {
	registries := map[string]*RegistryExpr{}
	for _, reg := range r.Registries {
		if err := CheckName(reg.Name); err != nil {
			p.add(reg, reg.At, "registry name: %v", err)
		}
		if first, dup := registries[reg.Name]; dup {
			p.add(reg, reg.At, "duplicate registry %q (first declared at %s)", reg.Name, first.At)
			continue
		}
		registries[reg.Name] = reg
	}
	toolsets := map[string]*ToolsetExpr{}
	for _, ts := range r.Toolsets {
		if first, dup := toolsets[ts.Name]; dup {
			p.add(ts, ts.At, "duplicate toolset %q (first declared at %s)", ts.Name, first.At)
			continue
		}
		toolsets[ts.Name] = ts
	}
	type agentKey struct {
		service *goaexpr.ServiceExpr
		name    string
	}
	agents := map[agentKey]*AgentExpr{}
	for _, a := range r.Agents {
		key := agentKey{a.Service, a.Name}
		if first, dup := agents[key]; dup {
			p.add(a, a.At, "duplicate agent %q in service %q (first declared at %s)", a.Name, a.Service.Name, first.At)
			continue
		}
		agents[key] = a
	}
}
