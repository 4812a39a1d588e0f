package toolsearch

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"
)

// ErrDuplicateName is wrapped by the error of an index constructor when two
// tools share a name or model-facing name.
var ErrDuplicateName = errors.New("duplicate tool name")

// Index is a searchable tool catalog, built by [NewIndex],
// [NewIndexFromCounts] or [NewIndexFromDocuments] (the zero Index is an empty
// catalog). It is immutable once built and safe for concurrent use.
type Index struct {
	names  []string   // catalog name of each tool, in registration order
	byName dictionary // names and model-facing names
	named  []toolName // the tool of each byName entry

	terms dictionary
	// The postings of term t are postings[postStart[t]:postStart[t+1]], in
	// tool order; common[t] marks terms too common to find a tool by.
	postStart []int32
	postings  []posting
	common    []bool

	states sync.Pool // of *searchState
}

// posting is a term's occurrence in a tool: its score and fields.
type posting struct {
	tool   int32
	score  float32
	fields FieldSet
}

// toolName is the tool that a name or model-facing name refers to.
type toolName struct {
	tool int32
	// word marks a name that is one ordinary word ("help", "translate"):
	// inside a sentence it is that word, not the tool, so it names the
	// tool exactly only as the whole query or quoted.
	word bool
}

// NewIndex builds an index from the precomputed counts of a catalog. It does
// no tokenizing and hashes only tool names and distinct terms. It fails with
// an error wrapping [ErrInvalidDocument] when the counts are malformed (an
// empty name; an empty or repeated term; a tool position out of range or not
// increasing; a negative count; a term counted in no field) and
// [ErrDuplicateName] when names collide.
func NewIndex(cat CatalogCounts) (*Index, error) {
	n := len(cat.Tools)
	occurrences := 0
	for t := range cat.Terms {
		occurrences += len(cat.Terms[t].Tools)
	}
	if n >= math.MaxInt32 || occurrences >= math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d tools with %d term counts is more than an index holds", ErrInvalidDocument, n, occurrences)
	}
	ix := newNamedIndex(n)
	ix.terms = newDictionary(len(cat.Terms))
	ix.postStart = make([]int32, len(cat.Terms)+1)
	ix.postings = make([]posting, occurrences)
	ix.common = make([]bool, len(cat.Terms))
	for i, tool := range cat.Tools {
		if err := ix.addNames(int32(i), tool.Name, tool.Alias); err != nil {
			return nil, err
		}
	}

	// First pass: check the postings and sum the length of every field of
	// every tool.
	lengths := make([][numFields]int64, n)
	for t := range cat.Terms {
		tp := &cat.Terms[t]
		if tp.Term == "" {
			return nil, fmt.Errorf("%w: empty term", ErrInvalidDocument)
		}
		if _, added := ix.terms.add(tp.Term); !added {
			return nil, fmt.Errorf("%w: term %q listed twice", ErrInvalidDocument, tp.Term)
		}
		ix.postStart[t+1] = ix.postStart[t] + int32(len(tp.Tools))
		ix.common[t] = isCommon(len(tp.Tools), n)
		prev := int32(-1)
		for j := range tp.Tools {
			tt := &tp.Tools[j]
			if tt.Tool <= prev || int(tt.Tool) >= n {
				return nil, fmt.Errorf("%w: term %q: tool position %d out of order or range [0, %d)", ErrInvalidDocument, tp.Term, tt.Tool, n)
			}
			prev = tt.Tool
			if !tt.Counts.valid() {
				return nil, fmt.Errorf("%w: term %q: tool %q: %w", ErrInvalidDocument, tp.Term, ix.names[tt.Tool], tt.Counts.invalid())
			}
			l := &lengths[tt.Tool]
			c := &tt.Counts
			l[FieldName] += int64(c.Name)
			l[FieldTitle] += int64(c.Title)
			l[FieldDescription] += int64(c.Description)
			l[FieldParamName] += int64(c.ParamName)
			l[FieldParamDescription] += int64(c.ParamDescription)
			l[FieldExtra] += int64(c.Extra)
		}
	}

	// Second pass: score every posting.
	scales := fieldScales(lengths)
	p := 0
	for t := range cat.Terms {
		tp := &cat.Terms[t]
		termIDF := float32(idf(len(tp.Tools), n))
		for j := range tp.Tools {
			tt := &tp.Tools[j]
			ix.postings[p] = posting{
				tool:   tt.Tool,
				score:  termScore(termIDF, &tt.Counts, &scales[tt.Tool]),
				fields: tt.Counts.fields(),
			}
			p++
		}
	}
	return ix, nil
}

// NewIndexFromCounts builds an index from per-tool counts in registration
// order: [NewIndex] of their [NewCatalogCounts]. It does no tokenizing, but
// hashes every term of every tool; prefer [NewIndex] with counts merged
// ahead of time for large catalogs.
func NewIndexFromCounts(counts []Counts) (*Index, error) {
	return NewIndex(mergeCounts(counts))
}

// NewIndexFromDocuments analyzes tool documents, in registration order, and
// builds their index: the run-time path for catalogs that were not known at
// generation time. It analyzes every document once, straight into the
// index's terms, and ranks exactly as [NewIndex] of the documents' counts
// does. Errors are those of [Count] and [NewIndex].
func NewIndexFromDocuments(docs []Document) (*Index, error) {
	n := len(docs)
	if n >= math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d tools is more than an index holds", ErrInvalidDocument, n)
	}
	a := newAnalysis(termsPerTool*min(n, 64), termsPerTool*n, true)
	lengths := make([][numFields]int64, n)
	for i := range docs {
		if docs[i].Name == "" {
			return nil, fmt.Errorf("tool %d: %w: empty name", i, ErrInvalidDocument)
		}
		if err := a.document(&docs[i], int32(i)); err != nil {
			return nil, fmt.Errorf("tool %d: %w", i, err)
		}
		lengths[i] = a.length
	}
	if len(a.occs) >= math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d tools with %d term counts is more than an index holds", ErrInvalidDocument, n, len(a.occs))
	}
	ix := newNamedIndex(n)
	for i := range docs {
		if err := ix.addNames(int32(i), docs[i].Name, docs[i].Alias); err != nil {
			return nil, err
		}
	}

	// Arrange the counts by term, in tool order within a term, scoring
	// each on the way.
	terms := a.terms.len()
	ix.terms = a.terms
	ix.postStart = make([]int32, terms+1)
	ix.common = make([]bool, terms)
	for i := range a.occs {
		ix.postStart[a.occs[i].term+1]++
	}
	termIDF := make([]float32, terms)
	next := make([]int32, terms) // where the term's next posting goes
	for t := range terms {
		df := int(ix.postStart[t+1])
		ix.common[t] = isCommon(df, n)
		termIDF[t] = float32(idf(df, n))
		next[t] = ix.postStart[t]
		ix.postStart[t+1] += ix.postStart[t]
	}
	scales := fieldScales(lengths)
	ix.postings = make([]posting, len(a.occs))
	for i := range a.occs {
		o := &a.occs[i]
		ix.postings[next[o.term]] = posting{
			tool:   o.tool,
			score:  termScore(termIDF[o.term], &o.counts, &scales[o.tool]),
			fields: o.counts.fields(),
		}
		next[o.term]++
	}
	return ix, nil
}

// newNamedIndex returns an index for n tools, ready for their names.
func newNamedIndex(n int) *Index {
	return &Index{
		names:  make([]string, n),
		byName: newDictionary(n),
		named:  make([]toolName, 0, n),
	}
}

// addNames registers the name and model-facing name of tool i.
func (ix *Index) addNames(i int32, name, alias string) error {
	if name == "" {
		return fmt.Errorf("%w: tool %d: empty name", ErrInvalidDocument, i)
	}
	ix.names[i] = name
	if alias == name {
		alias = "" // no other name
	}
	for _, name := range [...]string{name, alias} {
		if name == "" {
			continue
		}
		id, added := ix.byName.add(name)
		if !added {
			return fmt.Errorf("%w: %q names tools %q and %q", ErrDuplicateName, name, ix.names[ix.named[id].tool], ix.names[i])
		}
		ix.named = append(ix.named, toolName{tool: i, word: isPlainWord(name)})
	}
	return nil
}

// isPlainWord reports whether name is letters only, with no capital after
// the first: a word that no separator or case change splits.
func isPlainWord(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return isPlainWordUnicode(name)
		}
		if !('a' <= c && c <= 'z' || i == 0 && 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func isPlainWordUnicode(name string) bool {
	for i, r := range name {
		if !unicode.IsLetter(r) || i > 0 && unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// Len returns the number of tools in the index.
func (ix *Index) Len() int { return len(ix.names) }
