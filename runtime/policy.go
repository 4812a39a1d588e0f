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
// error result. An agent's policy and a run's policy both apply; a child
// run (an agent used as a tool) applies, besides its own agent's policy,
// every policy in force for the run that started it.
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

// isZero reports whether p sets nothing: it permits every tool.
func (p Policy) isZero() bool {
	return len(p.AllowTools) == 0 && len(p.AllowToolsets) == 0 && len(p.DenyTools) == 0 && len(p.DenyToolsets) == 0 && len(p.RequiredLabels) == 0
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

// permits reports whether the policy lets a run with labels use the tool
// id. The labels its contract requires are the run policy's to check.
func (c *compiledPolicy) permits(id tools.Ident, labels map[string]string) bool {
	ts := id.Toolset()
	if c.restricted && !c.allowTools[id] && !c.allowToolsets[ts] {
		return false
	}
	if c.denyTools[id] || c.denyToolsets[ts] {
		return false
	}
	for k, v := range c.labels[id] {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// empty reports whether the policy permits every tool.
func (c *compiledPolicy) empty() bool {
	return !c.restricted && len(c.denyTools) == 0 && len(c.denyToolsets) == 0 && len(c.labels) == 0
}

// runPolicy is the policy in force for one run: its agent's and its own,
// with the run's labels. A child run (an agent used as a tool) also keeps
// the policies in force for the run that started it, so it may use only
// what its own agent, its parent run and every run above that permit: a
// restriction set on a run holds through every agent it calls. Each policy
// is kept once, so a chain of child runs of a few agents holds a few
// policies, however deep it nests.
type runPolicy struct {
	policies []*compiledPolicy // none empty, none twice
	labels   map[string]string
}

// newRunPolicy returns the policy of a run with labels under the given
// policies.
func newRunPolicy(labels map[string]string, policies ...*compiledPolicy) *runPolicy {
	return (&runPolicy{labels: labels}).with(policies...)
}

// with returns p with the given policies (nil for none) in force as well.
func (p *runPolicy) with(policies ...*compiledPolicy) *runPolicy {
	q := &runPolicy{policies: p.policies, labels: p.labels}
	for _, c := range policies {
		if c == nil || c.empty() || slices.Contains(q.policies, c) {
			continue
		}
		q.policies = append(slices.Clip(q.policies), c)
	}
	return q
}

// child returns the policy of a child run of agent a started under p. The
// child run has p's labels, and no run policy of its own.
func (p *runPolicy) child(a *agent) *runPolicy { return p.with(a.policy) }

// permits reports whether the run may use t: its contract's labels and
// every policy in force allow it.
func (p *runPolicy) permits(t *catalogTool) bool {
	if !t.schema.Contract.AllowsLabels(p.labels) {
		return false
	}
	for _, c := range p.policies {
		if !c.permits(t.id, p.labels) {
			return false
		}
	}
	return true
}

// key identifies what the policy permits in a catalog whose contracts
// require labelKeys: two runs with one key see the same tools.
func (p *runPolicy) key(labelKeys map[string]bool) string {
	keys := make(map[string]bool, len(labelKeys))
	maps.Copy(keys, labelKeys)
	var b strings.Builder
	for _, c := range p.policies {
		for _, want := range c.labels {
			for k := range want {
				keys[k] = true
			}
		}
		b.WriteString(strconv.Quote(c.key))
	}
	b.WriteString("/")
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		v, ok := p.labels[k]
		b.WriteString(strconv.Quote(k))
		if ok {
			b.WriteString(strconv.Quote(v))
		} else {
			b.WriteString("-")
		}
	}
	return b.String()
}
