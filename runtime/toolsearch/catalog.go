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
// that tool, which NewIndex rejects too. The postings of all terms share one
// backing array, in the order of the terms, each term's slice capped at its
// own postings: NewIndex reads them in one sequential sweep.
func NewCatalogCounts(counts []Counts) CatalogCounts {
	return mergeCounts(counts, true)
}

// mergeCounts is [NewCatalogCounts] with the terms sorted when sorted is set,
// in order of first occurrence otherwise.
func mergeCounts(counts []Counts, sorted bool) CatalogCounts {
	cat := CatalogCounts{Tools: make([]CatalogTool, len(counts))}
	total := 0
	for i := range counts {
		total += len(counts[i].Terms)
	}
	// First pass: number the terms and count their postings.
	terms := newDictionary(min(total, termsPerTool*len(counts)/4))
	termOf := make([]int32, 0, total) // the term of every count, in order
	var df []int32
	for i := range counts {
		c := &counts[i]
		cat.Tools[i] = CatalogTool{Name: c.Name, Alias: c.Alias}
		for j := range c.Terms {
			t, added := terms.add(c.Terms[j].Term)
			if added {
				df = append(df, 0)
			}
			df[t]++
			termOf = append(termOf, t)
		}
	}
	// The terms in the order of cat.Terms, which their postings follow in
	// the backing array.
	order := make([]int32, len(df))
	for t := range order {
		order[t] = int32(t)
	}
	if sorted {
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(terms.keys[a], terms.keys[b]) })
	}
	// Second pass: fill every term's postings, in tool order.
	postings := make([]ToolTerm, total)
	next := make([]int32, len(df)) // where the term's next posting goes
	cat.Terms = make([]TermPostings, len(df))
	start := int32(0)
	for i, t := range order {
		end := start + df[t]
		cat.Terms[i] = TermPostings{Term: terms.keys[t], Tools: postings[start:end:end]}
		next[t] = start
		start = end
	}
	k := 0
	for i := range counts {
		for _, tc := range counts[i].Terms {
			t := termOf[k]
			postings[next[t]] = ToolTerm{Tool: int32(i), Counts: tc.Counts}
			next[t]++
			k++
		}
	}
	return cat
}
