package runtime

// What a step's request declares: the permitted immediate tools, the
// discovery tool when the agent has deferred tools, then the tools this
// run's history discovered (latest snapshot of each name, in order of first
// discovery) that the step's catalog still holds, unchanged and permitted.
// It is what discovery.Declare decides for those application tools, that
// history and that permitted set, so the request passes discovery.Check in
// the provider adapters; it is kept up to date as results are appended
// instead of re-read from the history on every step.

import (
	"bytes"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// DiscoveryToolName is the name requests give the discovery tool; package
// discovery decides it.
const DiscoveryToolName = discovery.ToolName

// discovered is the run's discovered tools: the latest snapshot of each
// name, in order of first discovery.
type discovered struct {
	order  []string
	latest map[string]model.ToolSnapshot
}

// record adds the snapshots of a discovery result.
func (d *discovered) record(res *model.DiscoveryResult) {
	if d.latest == nil {
		d.latest = make(map[string]model.ToolSnapshot)
	}
	for _, s := range res.Tools {
		if _, seen := d.latest[s.Name]; !seen {
			d.order = append(d.order, s.Name)
		}
		d.latest[s.Name] = s
	}
}

// recordMessages adds the snapshots of every discovery result in msgs.
func (d *discovered) recordMessages(msgs []model.Message) {
	for _, m := range msgs {
		if m.Role != model.RoleDiscovery {
			continue
		}
		for _, p := range m.Parts {
			if p.DiscoveryResult != nil {
				d.record(p.DiscoveryResult)
			}
		}
	}
}

// declarations returns what the step's request declares.
func (r *run) declarations(cat *catalog) []model.ToolDefinition {
	if r.immCatalog != cat {
		r.immDefs = r.immDefs[:0]
		for _, t := range cat.immediate {
			if r.policy.permits(t) {
				r.immDefs = append(r.immDefs, t.definition())
			}
		}
		r.immCatalog = cat
	}
	defs := make([]model.ToolDefinition, 0, len(r.immDefs)+1+len(r.found.order))
	defs = append(defs, r.immDefs...)
	if r.agent.hasDeferred() {
		defs = append(defs, r.agent.discoveryTool)
	}
	for _, name := range r.found.order {
		snap := r.found.latest[name]
		if t := r.callable(cat, name, snap); t != nil {
			defs = append(defs, snap.Definition())
		}
	}
	return defs
}

// callable returns the catalog tool a discovered snapshot stands for, or nil
// when the step's catalog no longer holds it, holds it changed, or the run
// may not use it.
func (r *run) callable(cat *catalog, name string, snap model.ToolSnapshot) *catalogTool {
	t := cat.byName[name]
	if t == nil || !t.deferred || !sameSnapshot(t.snapshot, snap) || !r.policy.permits(t) {
		return nil
	}
	return t
}

// sameSnapshot reports whether two snapshots render the same declaration.
func sameSnapshot(a, b model.ToolSnapshot) bool {
	return a.Name == b.Name && a.Description == b.Description && a.Namespace == b.Namespace &&
		(a.Strict == nil) == (b.Strict == nil) && (a.Strict == nil || *a.Strict == *b.Strict) &&
		bytes.Equal(a.Parameters, b.Parameters)
}

// discoverySettings returns the request's discovery settings.
func (r *run) discoverySettings() model.Discovery {
	return model.Discovery{Enabled: r.agent.hasDeferred(), Description: r.agent.reg.DiscoveryDescription}
}
