package toolsearch

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unicode"
)

// ErrDuplicateName is wrapped by the error of an index constructor when two
// tools share a name or model-facing name.
var ErrDuplicateName = errors.New("duplicate tool name")

// Index is a searchable tool catalog. It is immutable once built and safe for
// concurrent use.
type Index struct {
	names   []string // catalog name of each tool, in registration order
	aliases []string // model-facing name of each tool, or ""
	byName  map[string]toolName

	terms map[string]int32 // term -> term id
	// Postings of term t are post*[postStart[t]:postStart[t+1]], in tool
	// order; common[t] marks terms too common to find a tool by.
	postStart  []int32
	postTool   []int32
	postScore  []float32
	postFields []FieldSet
	common     []bool

	states sync.Pool // of *searchState
}

// NewIndex builds an index from precomputed counts, one per tool in
// registration order. It does no tokenizing: the counts must come from
// [Count] (or be generated from it). It fails with an error wrapping
// [ErrInvalidDocument] when counts are malformed (empty name, empty,
// unsorted or repeated terms, negative counts) and [ErrDuplicateName] when
// names collide.
func NewIndex(counts []Counts) (*Index, error) {
	n := len(counts)
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d tools is more than an index holds", ErrInvalidDocument, n)
	}
	ix := &Index{
		names:   make([]string, n),
		aliases: make([]string, n),
		byName:  make(map[string]toolName, n),
	}
	occurrences := 0
	for i := range counts {
		occurrences += len(counts[i].Terms)
	}
	ix.terms = make(map[string]int32, occurrences/4+16)
	occTerm := make([]int32, 0, occurrences) // term id of each term of each tool, in order
	var df []int32
	lengths := make([][numFields]float64, n)
	var totals [numFields]float64
	for i := range counts {
		c := &counts[i]
		if err := ix.addName(int32(i), c); err != nil {
			return nil, err
		}
		for j := range c.Terms {
			tc := &c.Terms[j]
			if err := checkTermCounts(c, j); err != nil {
				return nil, err
			}
			id, ok := ix.terms[tc.Term]
			if !ok {
				id = int32(len(df))
				ix.terms[tc.Term] = id
				df = append(df, 0)
			}
			df[id]++
			occTerm = append(occTerm, id)
			for f := range Field(numFields) {
				lengths[i][f] += float64(tc.field(f))
			}
		}
		for f := range numFields {
			totals[f] += lengths[i][f]
		}
	}
	var avg [numFields]float64
	for f := range numFields {
		if n > 0 {
			avg[f] = totals[f] / float64(n)
		}
	}

	ix.postStart = make([]int32, len(df)+1)
	ix.common = make([]bool, len(df))
	termIDF := make([]float64, len(df))
	for t, d := range df {
		ix.postStart[t+1] = ix.postStart[t] + d
		ix.common[t] = isCommon(int(d), n)
		termIDF[t] = idf(int(d), n)
	}
	ix.postTool = make([]int32, occurrences)
	ix.postScore = make([]float32, occurrences)
	ix.postFields = make([]FieldSet, occurrences)
	fill := make([]int32, len(df))
	copy(fill, ix.postStart[:len(df)])
	k := 0
	for i := range counts {
		for j := range counts[i].Terms {
			tc := &counts[i].Terms[j]
			t := occTerm[k]
			k++
			var tf [numFields]int32
			var fields FieldSet
			for f := range Field(numFields) {
				if tf[f] = tc.field(f); tf[f] > 0 {
					fields |= 1 << f
				}
			}
			p := fill[t]
			fill[t]++
			ix.postTool[p] = int32(i)
			ix.postScore[p] = float32(impact(termIDF[t], &tf, &lengths[i], &avg))
			ix.postFields[p] = fields
		}
	}
	ix.states.New = func() any { return ix.newState() }
	return ix, nil
}

// NewIndexFromDocuments analyzes tool documents, in registration order, and
// builds their index: the run-time path for catalogs that were not known at
// generation time. Errors are those of [Count] and [NewIndex].
func NewIndexFromDocuments(docs []Document) (*Index, error) {
	counts := make([]Counts, len(docs))
	for i, doc := range docs {
		c, err := Count(doc)
		if err != nil {
			return nil, fmt.Errorf("tool %d: %w", i, err)
		}
		counts[i] = c
	}
	return NewIndex(counts)
}

// addName registers the names of tool i.
func (ix *Index) addName(i int32, c *Counts) error {
	if c.Name == "" {
		return fmt.Errorf("%w: tool %d: empty name", ErrInvalidDocument, i)
	}
	ix.names[i] = c.Name
	if c.Alias != c.Name {
		ix.aliases[i] = c.Alias
	}
	for _, name := range [...]string{c.Name, ix.aliases[i]} {
		if name == "" {
			continue
		}
		if other, ok := ix.byName[name]; ok {
			return fmt.Errorf("%w: %q names tools %q and %q", ErrDuplicateName, name, ix.names[other.tool], c.Name)
		}
		ix.byName[name] = toolName{tool: i, word: isPlainWord(name)}
	}
	return nil
}

// toolName is a tool that a name or model-facing name refers to.
type toolName struct {
	tool int32
	// word marks a name that is one ordinary word ("help", "translate"):
	// inside a sentence it is that word, not the tool, so only a query
	// that is the name alone names the tool exactly.
	word bool
}

// isPlainWord reports whether name is letters only, with no capital after
// the first: a word that no separator or case change splits.
func isPlainWord(name string) bool {
	for i, r := range name {
		if !unicode.IsLetter(r) || i > 0 && unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// checkTermCounts checks term j of c: non-empty, after the previous term,
// with non-negative counts of which one at least is positive.
func checkTermCounts(c *Counts, j int) error {
	tc := &c.Terms[j]
	switch {
	case tc.Term == "":
		return fmt.Errorf("%w: tool %q: empty term", ErrInvalidDocument, c.Name)
	case j > 0 && c.Terms[j-1].Term >= tc.Term:
		return fmt.Errorf("%w: tool %q: term %q after %q: terms must be sorted and unique",
			ErrInvalidDocument, c.Name, tc.Term, c.Terms[j-1].Term)
	}
	total := int64(0)
	for f := range Field(numFields) {
		v := tc.field(f)
		if v < 0 {
			return fmt.Errorf("%w: tool %q: term %q: negative %s count %d", ErrInvalidDocument, c.Name, tc.Term, f, v)
		}
		total += int64(v)
	}
	if total == 0 {
		return fmt.Errorf("%w: tool %q: term %q occurs in no field", ErrInvalidDocument, c.Name, tc.Term)
	}
	return nil
}

// Len returns the number of tools in the index.
func (ix *Index) Len() int { return len(ix.names) }
