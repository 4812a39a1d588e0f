package runtime

// Answering a discovery call: package discovery answers it from the
// deferred tools the run may use. That permitted catalog is built on the
// first discovery call that needs it and shared by every run and step that
// may use the same tools of the same catalog, so steps without a discovery
// call never pay for it. Every permitted catalog is a subset of one catalog
// of all the deferred tools, checked and indexed once per step catalog.
//
// A returned tool brings its pagination partner (discovery.Catalog.Answer)
// from the same permitted catalog: a partner the run may not use, or the
// agent does not defer, is never loaded, and a call to it is refused.

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// permittedCacheSize bounds the permitted catalogs one catalog keeps.
const permittedCacheSize = 64

// answer answers one discovery call.
func (r *run) answer(cat *catalog, call model.DiscoveryCall) (model.DiscoveryResult, error) {
	dc, err := cat.permittedFor(r.policy)
	if err != nil {
		return model.DiscoveryResult{}, err
	}
	limit := r.agent.reg.DiscoveryLimit
	if limit == 0 {
		limit = DefaultDiscoveryLimit
	}
	return dc.Answer(call, limit)
}

// permittedFor returns the discovery catalog of the deferred tools p
// permits. Runs whose policies leave out the same tools share one: the set
// left out is worked out once per policy key, and a discovery catalog is
// built once per distinct set.
func (c *catalog) permittedFor(p *runPolicy) (*discovery.Catalog, error) {
	key := p.key(c.labelKeys)
	c.permittedMu.Lock()
	defer c.permittedMu.Unlock()
	set, ok := c.excludedByKey[key]
	if !ok {
		var kb keyBuilder
		for i, t := range c.deferred {
			if !p.permits(t) {
				kb.add(strconv.Itoa(i))
			}
		}
		set = kb.String()
		if c.excludedByKey == nil || len(c.excludedByKey) == permittedCacheSize {
			c.excludedByKey = make(map[string]string)
		}
		c.excludedByKey[key] = set
	}
	if dc, ok := c.permitted[set]; ok {
		return dc, nil
	}
	full, err := c.fullCatalog()
	if err != nil {
		return nil, err
	}
	dc := full
	if set != "" {
		// Subset keeps the full catalog's order, its index and its
		// checked entries: nothing is checked or indexed again.
		dc = full.Subset(func(i int) bool { return p.permits(c.deferred[i]) })
	}
	if c.permitted == nil || len(c.permitted) == permittedCacheSize {
		c.permitted = make(map[string]*discovery.Catalog)
	}
	c.permitted[set] = dc
	return dc, nil
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
