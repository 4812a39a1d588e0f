package discovery

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// Entry is one tool of a Catalog.
type Entry struct {
	// Snapshot is the tool as discovery results return it; the model calls
	// the tool by Snapshot.Name.
	Snapshot model.ToolSnapshot
	// Name is the tool's catalog name (its identifier, "records.lookup")
	// when it differs from Snapshot.Name; empty otherwise. Exact-name
	// discovery finds the tool by either name.
	Name string
	// Title is the tool's human-readable title, searched like its name.
	Title string
	// SearchTerms are extra keywords that find the tool.
	SearchTerms []string
	// Partner names the tool's pagination partner, by its catalog name or
	// the name the model knows, when it has one. A discovery answer that
	// returns the tool returns its partner with it when the catalog holds
	// the partner (see Catalog.Answer); a partner the catalog does not hold
	// is never returned.
	Partner string
}

// catalogName returns the name the search index knows the entry by.
func (e *Entry) catalogName() string {
	if e.Name != "" {
		return e.Name
	}
	return e.Snapshot.Name
}

// Catalog is a run's permitted catalog of deferred tools: their snapshots
// and a search index, built once and then read-only, safe for concurrent
// use. Discovery answers only from it and Prepare declares no discovered
// tool it does not permit.
type Catalog struct {
	entries  []Entry
	byName   map[string]int // snapshot names and catalog names
	byModel  map[string]int // snapshot names only
	index    *toolsearch.Index
	deferred []model.ToolDefinition
	memo     *schemaMemo
}

// NewCatalog builds a catalog of entries, in the order search breaks ties
// in. No two entries may share a snapshot name or catalog name. Every
// snapshot must pass CheckSnapshot: NewCatalog checks names, the shape of
// the parameters and the strict contract of every entry up front, and
// compiles an entry's parameters the first time an answer returns it (so a
// 10,000-tool catalog does not compile 10,000 schemas before its first
// answer). Each snapshot's parameters are copied and compacted once, so
// every answer renders the same bytes.
//
// The catalog also remembers which parameter schemas passed their checks,
// so Declare and Prepare given this catalog compile each application tool
// and each snapshot in the history once.
//
// index, when not nil, is a prebuilt search index (such as one generated
// code embeds) holding at least every entry under its catalog name; tools
// it holds beyond the entries are never answered. When nil, the index is
// built from the entries.
func NewCatalog(entries []Entry, index *toolsearch.Index) (*Catalog, error) {
	c := &Catalog{
		entries:  make([]Entry, len(entries)),
		byName:   make(map[string]int, 2*len(entries)),
		byModel:  make(map[string]int, len(entries)),
		deferred: make([]model.ToolDefinition, len(entries)),
		memo:     new(schemaMemo),
	}
	// The compact parameters and the search terms of all entries share one
	// backing array each, every entry's slice capped at its own.
	paramsSize, termCount := 0, 0
	for i := range entries {
		paramsSize += len(entries[i].Snapshot.Parameters)
		termCount += len(entries[i].SearchTerms)
	}
	params := make([]byte, 0, paramsSize)
	terms := make([]string, 0, termCount)
	var shape shapeReader
	for i, e := range entries {
		start := len(params)
		var err *model.ValidationError
		if params, err = checkEntry(&shape, params, &e.Snapshot, i); err != nil {
			return nil, err
		}
		e.Snapshot.Parameters = params[start:len(params):len(params)]
		if e.SearchTerms != nil {
			start := len(terms)
			terms = append(terms, e.SearchTerms...)
			e.SearchTerms = terms[start:len(terms):len(terms)]
		}
		if e.Name == e.Snapshot.Name {
			e.Name = ""
		}
		for _, n := range [...]string{e.Snapshot.Name, e.Name} {
			if n == "" {
				continue
			}
			if j, dup := c.byName[n]; dup {
				return nil, fmt.Errorf("discovery: catalog entries %d and %d are both named %q: %w", j, i, n, ErrNameCollision)
			}
			c.byName[n] = i
		}
		c.byModel[e.Snapshot.Name] = i
		c.entries[i] = e
		c.deferred[i] = e.Snapshot.Definition()
	}
	if index == nil {
		docs := make([]toolsearch.Document, len(c.entries))
		for i := range c.entries {
			e := &c.entries[i]
			docs[i] = toolsearch.Document{
				Name:        e.catalogName(),
				Title:       e.Title,
				Description: e.Snapshot.Description,
				Parameters:  e.Snapshot.Parameters,
				SearchTerms: e.SearchTerms,
			}
			if e.Name != "" {
				docs[i].Alias = e.Snapshot.Name
			}
		}
		ix, err := toolsearch.NewIndexFromDocuments(docs)
		if err != nil {
			return nil, fmt.Errorf("discovery: catalog index: %w", err)
		}
		index = ix
	} else {
		names := make([]string, len(c.entries))
		for i := range c.entries {
			names[i] = c.entries[i].catalogName()
		}
		if _, err := index.Lookup(names...); err != nil {
			return nil, fmt.Errorf("discovery: catalog index: %w", err)
		}
	}
	c.index = index
	return c, nil
}

// Len returns the number of tools in the catalog.
func (c *Catalog) Len() int { return len(c.entries) }

// Permits reports whether the catalog holds a tool the model knows as name.
// A nil catalog permits nothing.
func (c *Catalog) Permits(name string) bool {
	if c == nil {
		return false
	}
	_, ok := c.byModel[name]
	return ok
}

// Snapshot returns the snapshot of the tool named name, by the name the
// model knows or its catalog name.
func (c *Catalog) Snapshot(name string) (model.ToolSnapshot, bool) {
	i, ok := c.byName[name]
	if !ok {
		return model.ToolSnapshot{}, false
	}
	return cloneSnapshot(c.entries[i].Snapshot), true
}

// Deferred returns the definitions of the catalog's tools, for providers
// that declare deferred tools up front. The slice is built once and shared:
// callers must not modify it.
func (c *Catalog) Deferred() []model.ToolDefinition { return c.deferred }
