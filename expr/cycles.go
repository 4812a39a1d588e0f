package expr

// This file rejects agents that reach themselves through exported tools. A
// Use of a toolset another agent exports makes the using agent run that
// agent as a tool; a cycle of such uses lets one run start runs of itself
// without end.

import (
	"fmt"
	"strings"
)

// validateExportCycles reports every cycle of agents that use each other's
// exported toolsets, directly or through longer chains. Agents are walked
// depth first in declaration order, their uses in declaration order, and
// each cycle is reported at the Use that closes it, naming every step.
// Using one's own export is rejected by the Use itself.
func (r *RootExpr) validateExportCycles(p *problems) {
	const (
		unvisited = iota
		onPath
		done
	)
	state := make(map[*AgentExpr]int, len(r.Agents))
	var path []*UseExpr // the uses walked from the current root agent
	var visit func(a *AgentExpr)
	visit = func(a *AgentExpr) {
		state[a] = onPath
		for _, u := range a.Uses {
			next := exportingAgent(u)
			if next == nil {
				continue
			}
			switch state[next] {
			case unvisited:
				path = append(path, u)
				visit(next)
				path = path[:len(path)-1]
			case onPath:
				p.add(u, u.At, "agents use each other's exported tools in a cycle, so a run would start runs of itself without end: %s", describeCycle(append(path, u), next))
			}
		}
		state[a] = done
	}
	for _, a := range r.Agents {
		if state[a] == unvisited {
			visit(a)
		}
	}
}

// exportingAgent returns the agent whose exported toolset u uses, nil when u
// uses no other agent's export.
func exportingAgent(u *UseExpr) *AgentExpr {
	if u.Toolset == nil || u.Toolset.ExportedBy == nil || u.Toolset.ExportedBy == u.Agent {
		return nil
	}
	return u.Toolset.ExportedBy
}

// describeCycle renders the cycle that starts at agent start in path, whose
// last use leads back to start.
func describeCycle(path []*UseExpr, start *AgentExpr) string {
	i := 0
	for path[i].Agent != start {
		i++
	}
	steps := make([]string, 0, len(path)-i)
	for _, u := range path[i:] {
		steps = append(steps, fmt.Sprintf("agent %q uses toolset %q of agent %q (at %s)", u.Agent.Name, u.Toolset.Name, u.Toolset.ExportedBy.Name, u.At))
	}
	return strings.Join(steps, ", ")
}
