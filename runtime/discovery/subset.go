package discovery

import "github.com/goa-discovery/goa-discovery/runtime/model"

// Subset returns the catalog of this catalog's entries that keep accepts,
// given their positions in the order NewCatalog received them, in that
// order. It checks and copies nothing again: the subset shares the
// entries' checked, compacted snapshots, the search index (whose other
// tools it never answers) and the memory of checked schemas. It is the
// cheap way to derive the permitted catalogs of several run policies from
// one catalog of every deferred tool: its cost is one call of keep and, for
// each kept entry, a copy and its names.
func (c *Catalog) Subset(keep func(i int) bool) *Catalog {
	s := &Catalog{
		byName:  make(map[string]int, len(c.byName)),
		byModel: make(map[string]int, len(c.byModel)),
		index:   c.index,
		memo:    c.memo,
		// Room for every entry: a policy usually leaves out few.
		entries:  make([]Entry, 0, len(c.entries)),
		deferred: make([]model.ToolDefinition, 0, len(c.entries)),
	}
	for i := range c.entries {
		if !keep(i) {
			continue
		}
		e := &c.entries[i]
		k := len(s.entries)
		s.entries = append(s.entries, *e)
		s.deferred = append(s.deferred, c.deferred[i])
		s.byModel[e.Snapshot.Name] = k
		s.byName[e.Snapshot.Name] = k
		if e.Name != "" {
			s.byName[e.Name] = k
		}
	}
	return s
}
