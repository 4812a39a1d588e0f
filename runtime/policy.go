package runtime

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Policy says which tools a run may use. A tool outside policy is never
// declared, found by discovery or executed; a call to it is answered with an
// error result. An agent's policy and a run's policy both apply.
//
// A tool is permitted when
//   - no allow list is set, or the tool is in AllowTools, or its toolset in
//     AllowToolsets;
//   - it is not in DenyTools and its toolset is not in DenyToolsets;
//   - the run's labels carry every label its contract requires and every
//     label RequiredLabels lists for it.
type Policy struct {
	// AllowTools lists permitted tools.
	AllowTools []tools.Ident
	// AllowToolsets lists toolsets whose tools are permitted.
	AllowToolsets []string
	// DenyTools lists refused tools; a denial beats an allowance.
	DenyTools []tools.Ident
	// DenyToolsets lists toolsets whose tools are refused.
	DenyToolsets []string
	// RequiredLabels maps a tool to run labels it requires, in addition to
	// those of its contract.
	RequiredLabels map[tools.Ident]map[string]string
}

// compiledPolicy is a Policy as sets, checked in constant time per tool.
type compiledPolicy struct {
	restricted    bool
	allowTools    map[tools.Ident]bool
	allowToolsets map[string]bool
	denyTools     map[tools.Ident]bool
	denyToolsets  map[string]bool
	labels        map[tools.Ident]map[string]string
	// key identifies the policy's content.
	key string
}

func (p Policy) compile() (*compiledPolicy, error) {
	c := &compiledPolicy{
		restricted:    len(p.AllowTools) > 0 || len(p.AllowToolsets) > 0,
		allowTools:    make(map[tools.Ident]bool, len(p.AllowTools)),
		allowToolsets: make(map[string]bool, len(p.AllowToolsets)),
		denyTools:     make(map[tools.Ident]bool, len(p.DenyTools)),
		denyToolsets:  make(map[string]bool, len(p.DenyToolsets)),
		labels:        make(map[tools.Ident]map[string]string, len(p.RequiredLabels)),
	}
	for _, l := range []struct {
		ids []tools.Ident
		set map[tools.Ident]bool
	}{{p.AllowTools, c.allowTools}, {p.DenyTools, c.denyTools}} {
		for _, id := range l.ids {
			if err := id.Validate(); err != nil {
				return nil, fmt.Errorf("policy: %w", err)
			}
			l.set[id] = true
		}
	}
	for _, l := range []struct {
		names []string
		set   map[string]bool
	}{{p.AllowToolsets, c.allowToolsets}, {p.DenyToolsets, c.denyToolsets}} {
		for _, n := range l.names {
			if err := tools.ValidateName(n); err != nil {
				return nil, fmt.Errorf("policy: toolset: %w", err)
			}
			l.set[n] = true
		}
	}
	for id, want := range p.RequiredLabels {
		if err := id.Validate(); err != nil {
			return nil, fmt.Errorf("policy: required labels: %w", err)
		}
		c.labels[id] = maps.Clone(want)
	}
	c.key = policyKey(p)
	return c, nil
}

// policyKey renders a policy's content in a canonical form.
func policyKey(p Policy) string {
	var b strings.Builder
	list := func(items []string) {
		b.WriteString(strconv.Quote(strings.Join(slices.Sorted(slices.Values(items)), "\x00")))
	}
	idents := func(ids []tools.Ident) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = string(id)
		}
		return out
	}
	list(idents(p.AllowTools))
	list(p.AllowToolsets)
	list(idents(p.DenyTools))
	list(p.DenyToolsets)
	for _, id := range slices.Sorted(maps.Keys(p.RequiredLabels)) {
		b.WriteString(strconv.Quote(string(id)))
		want := p.RequiredLabels[id]
		for _, k := range slices.Sorted(maps.Keys(want)) {
			b.WriteString(strconv.Quote(k) + strconv.Quote(want[k]))
		}
	}
	return b.String()
}

// permits reports whether the policy lets a run with labels use t.
func (c *compiledPolicy) permits(id tools.Ident, contract *tools.Contract, labels map[string]string) bool {
	ts := id.Toolset()
	if c.restricted && !c.allowTools[id] && !c.allowToolsets[ts] {
		return false
	}
	if c.denyTools[id] || c.denyToolsets[ts] {
		return false
	}
	if !contract.AllowsLabels(labels) {
		return false
	}
	for k, v := range c.labels[id] {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// runPolicy is the policy in force for one run: the agent's and the run's,
// with the run's labels.
type runPolicy struct {
	agent, run *compiledPolicy
	labels     map[string]string
}

func (p *runPolicy) permits(t *catalogTool) bool {
	contract := t.schema.Contract
	return p.agent.permits(t.id, contract, p.labels) && p.run.permits(t.id, contract, p.labels)
}
