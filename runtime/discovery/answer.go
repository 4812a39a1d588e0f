package discovery

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// DefaultLimit is the number of tools a discovery query returns when the
// limit given is zero or negative.
const DefaultLimit = toolsearch.DefaultLimit

// Answer answers a discovery call from the catalog. Exact names come first:
// every named tool the catalog holds (by the name the model knows or its
// catalog name), each once, in the order named. Then the query, through
// the catalog's search index, adds the best matches not already returned
// until the result holds limit tools (DefaultLimit when limit <= 0); names
// alone are never cut. Each tool found brings its pagination partner
// (Entry.Partner) right after it when the catalog holds the partner, and
// that partner its own, each tool once. Partners count outside the limit:
// the model needs the partner to page the tool's results, and a limit
// that cut it would leave the tool's later pages out of reach. A partner
// the catalog does not hold is never returned, so an answer never widens
// what the catalog permits. The result holds the tools' snapshots, the
// same bytes on every call, or, when nothing is found, no tools and a note
// saying why: no tool has the names, no tool matches the query, or the
// query names nothing searchable ([toolsearch.Searchable]: it has only stop
// words and words that frame a request, such as "please help me"). A call without an id, or with neither names nor a query, is
// an error, and so is a found entry whose parameters do not compile as JSON
// Schema (see NewCatalog).
//
// A hosted call (model.DiscoveryCall.Hosted) was searched by its provider:
// its answer records the tools the provider loaded, its Names, and nothing
// the catalog would find for its query; a hosted call whose provider
// loaded nothing (yet) is answered with a note.
func (c *Catalog) Answer(call model.DiscoveryCall, limit int) (model.DiscoveryResult, error) {
	if call.ID == "" {
		return model.DiscoveryResult{}, fmt.Errorf("discovery: answer: %w", failure(-1, -1, model.RuleCallID, "discovery call has no id"))
	}
	if call.Hosted {
		if len(call.Names) == 0 {
			return model.DiscoveryResult{CallID: call.ID, Note: "The provider's search loaded no tool."}, nil
		}
		call.Query = ""
	}
	if len(call.Names) == 0 && call.Query == "" {
		return model.DiscoveryResult{}, fmt.Errorf("discovery: answer: %w", failure(-1, -1, model.RuleDiscoveryCall, "discovery call %q has neither names nor a query", call.ID))
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	var (
		found   []int
		seen    = make(map[int]bool)
		unknown []string
	)
	for _, n := range call.Names {
		i, ok := c.byName[n]
		switch {
		case !ok:
			unknown = append(unknown, n)
		case !seen[i]:
			seen[i] = true
			found = append(found, i)
		}
	}
	if call.Query != "" && len(found) < limit {
		found = c.search(call.Query, limit, found, seen)
	}
	found = c.withPartners(found)
	result := model.DiscoveryResult{CallID: call.ID}
	if len(found) == 0 {
		result.Note = emptyNote(unknown, call.Query)
		return result, nil
	}
	result.Tools = make([]model.ToolSnapshot, len(found))
	for k, i := range found {
		s := &c.entries[i].Snapshot
		if err := schemaFailure(c.memo.check(s.Parameters, isStrict(s)), -1, -1, "catalog entry "+quote(s.Name)); err != nil {
			return model.DiscoveryResult{}, fmt.Errorf("discovery: answer %q: %w", call.ID, err)
		}
		result.Tools[k] = cloneSnapshot(*s)
	}
	return result, nil
}

// search appends to found the best matches of query that are catalog
// entries not yet seen, until found holds limit entries. A prebuilt index
// may hold tools outside the catalog, so it asks for more results until
// enough entries are found or the index has no more.
func (c *Catalog) search(query string, limit int, found []int, seen map[int]bool) []int {
	want := limit + len(found)
	for {
		results := c.index.Search(query, want)
		for _, r := range results {
			i, ok := c.byName[r.Name]
			if !ok || seen[i] {
				continue
			}
			seen[i] = true
			found = append(found, i)
			if len(found) == limit {
				return found
			}
		}
		if len(results) < want || want >= c.index.Len() {
			return found
		}
		// Entries seen on this pass are kept; the next pass skips them.
		want *= 2
	}
}

// emptyNote explains an empty result.
func emptyNote(unknown []string, query string) string {
	var parts []string
	if len(unknown) > 0 {
		quoted := make([]string, len(unknown))
		for i, n := range unknown {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		parts = append(parts, "No available tool is named "+strings.Join(quoted, ", ")+".")
	}
	switch {
	case query != "" && !toolsearch.Searchable(query):
		parts = append(parts, fmt.Sprintf("The query %q names nothing searchable: its words only frame a request or join words (such as \"please\", \"help me\", \"the\", \"de\", \"から\"); say what the tool does.", query))
	case query != "":
		parts = append(parts, fmt.Sprintf("No available tool matches the query %q.", query))
	}
	return strings.Join(parts, " ")
}

// cloneSnapshot copies a snapshot so that callers cannot change the
// catalog's bytes.
func cloneSnapshot(s model.ToolSnapshot) model.ToolSnapshot {
	s.Parameters = bytes.Clone(s.Parameters)
	if s.Strict != nil {
		v := *s.Strict
		s.Strict = &v
	}
	return s
}
