package toolsearch

import (
	"slices"
	"strings"
)

// CatalogCounts is the precomputed counts of a whole catalog, arranged the
// way an index reads them: the tools, then every term once with the tools it
// occurs in. [NewIndex] builds from it in one sequential sweep, without
// tokenizing and hashing only one string per tool name and per distinct
// term, so code generation embeds it for a catalog it knows whole (an
// agent's deferred tools). [NewCatalogCounts] computes it from per-tool
// [Counts].
type CatalogCounts struct {
	// Tools are the catalog's tools in registration order.
	Tools []CatalogTool
	// Terms holds every term of the catalog once; [NewCatalogCounts] sorts
	// them.
	Terms []TermPostings
}

// CatalogTool is a tool of a [CatalogCounts].
type CatalogTool struct {
	// Name is the tool's catalog name.
	Name string
	// Alias is the model-facing name when it differs from Name.
	Alias string
}

// TermPostings is a term and the tools it occurs in.
type TermPostings struct {
	// Term is the term as [Terms] produces it.
	Term string
	// Tools are the tools the term occurs in, in increasing position.
	Tools []ToolTerm
}

// ToolTerm is how often a term occurs in each field of one tool.
type ToolTerm struct {
	// Tool is the position of the tool in [CatalogCounts.Tools].
	Tool int32
	// Counts are the term's occurrences per field.
	Counts FieldCounts
}

// NewCatalogCounts merges per-tool counts, in registration order, into the
// counts of their catalog. Malformed counts pass through for [NewIndex] to
// report, except that a term repeated within one tool gives two postings of
// that tool, which NewIndex rejects too.
func NewCatalogCounts(counts []Counts) CatalogCounts {
	cat := CatalogCounts{Tools: make([]CatalogTool, len(counts))}
	byTerm := make(map[string]int)
	for i, c := range counts {
		cat.Tools[i] = CatalogTool{Name: c.Name, Alias: c.Alias}
		for _, tc := range c.Terms {
			t, ok := byTerm[tc.Term]
			if !ok {
				t = len(cat.Terms)
				byTerm[tc.Term] = t
				cat.Terms = append(cat.Terms, TermPostings{Term: tc.Term})
			}
			cat.Terms[t].Tools = append(cat.Terms[t].Tools, ToolTerm{Tool: int32(i), Counts: tc.Counts})
		}
	}
	slices.SortFunc(cat.Terms, func(a, b TermPostings) int { return strings.Compare(a.Term, b.Term) })
	return cat
}
