package runtime

// What a step's request declares is decided by package discovery, the one
// place that decides it: the permitted immediate tools are the
// application's tools, the discovery tool follows when the agent has
// deferred tools, then the tools this run's history discovered, by latest
// snapshot in order of first discovery, declared non-strict beyond the
// model's strict-tool limits. The run keeps a discovery.Ledger of its
// history, so a step costs in proportion to the tools it declares, not to
// the conversation or the catalog; the run's permitted set says which
// discovered tools the step may still declare.

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// DiscoveryToolName is the name requests give the discovery tool; package
// discovery decides it.
const DiscoveryToolName = discovery.ToolName

// declarationsKey is everything a run's declarations depend on besides the
// run's policy, which is fixed for the invocation: the step's immutable
// catalog, the model's capabilities and the revision of the run's ledger.
type declarationsKey struct {
	cat        *catalog
	caps       model.Capabilities
	discovered int
}

// declarations returns what the step's request declares for a model with
// caps. A failure (an immediate tool outside the model's strict limits) is a
// *model.ValidationError: no request could declare those tools. Steps that
// share a catalog and a model, with no tool discovered or changed in
// between, share one decision.
func (r *run) declarations(cat *catalog, caps model.Capabilities) (*discovery.Declarations, error) {
	key := declarationsKey{cat: cat, caps: caps, discovered: r.ledger.Revision()}
	if r.decl != nil && r.declKey == key {
		return r.decl, nil
	}
	if r.immCatalog != cat {
		r.immDefs = r.immDefs[:0]
		for _, t := range cat.immediate {
			if r.policy.permits(t) {
				r.immDefs = append(r.immDefs, t.definition())
			}
		}
		r.immCatalog = cat
	}
	settings := r.discoverySettings()
	d, err := r.ledger.Declare(r.immDefs, discovery.Options{
		Enabled:     settings.Enabled,
		Description: settings.Description,
		Strict:      caps.Strict,
		Permitted:   stepPermits{run: r, cat: cat},
	})
	if err != nil {
		return nil, fmt.Errorf("declare tools: %w", err)
	}
	r.decl, r.declKey = d, key
	return d, nil
}

// stepPermits is the run's permitted set of discovered tools in one step:
// the tools the step's catalog still holds as deferred tools, unchanged
// since their latest discovery, that the run's policy permits.
type stepPermits struct {
	run *run
	cat *catalog
}

// Permits reports whether the step may declare the discovered tool name.
func (p stepPermits) Permits(name string) bool {
	snap, ok := p.run.ledger.Snapshot(name)
	return ok && p.run.callable(p.cat, name, snap) != nil
}

// callable returns the catalog tool a discovered snapshot stands for, or nil
// when the step's catalog no longer holds it, holds it changed, or the run
// may not use it.
func (r *run) callable(cat *catalog, name string, snap model.ToolSnapshot) *catalogTool {
	t := cat.byName[name]
	if t == nil || !t.deferred || !discovery.SameSnapshot(t.snapshot, snap) || !r.policy.permits(t) {
		return nil
	}
	return t
}

// discoverySettings returns the request's discovery settings.
func (r *run) discoverySettings() model.Discovery {
	return model.Discovery{Enabled: r.agent.hasDeferred(), Description: r.agent.reg.DiscoveryDescription,
		ConversationCatalog: r.agent.reg.ConversationCatalog}
}
