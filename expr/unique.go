package expr

// validateUniqueNames checks that registry, toolset and agent names are
// unique in the design (the runtime registers agents by name, whatever
// their service), and that registry names are valid (agent, toolset and
// tool names are checked by their own expressions).
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
	agents := map[string]*AgentExpr{}
	for _, a := range r.Agents {
		first, dup := agents[a.Name]
		switch {
		case !dup:
			agents[a.Name] = a
		case first.Service == a.Service:
			p.add(a, a.At, "duplicate agent %q in service %q (first declared at %s)", a.Name, a.Service.Name, first.At)
		default:
			p.add(a, a.At, "agent %q is already declared in service %q (at %s): the runtime registers agents by name, so agent names are unique in the design", a.Name, first.Service.Name, first.At)
		}
	}
}
