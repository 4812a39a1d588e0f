package toolsearch

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
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
	// postings[t] are the tools term t occurs in, in tool order, with its
	// counts there. The first search of term t scores them, with idf[t] and
	// the scales of the tools, and the postings of its synonyms, into
	// scored[t], by group of tools alike but for the numbers in their
	// names (groups); later searches read the scores.
	// common[t] marks terms that find tools only when a query's rarer terms
	// find none.
	postings [][]ToolTerm
	scored   []atomic.Pointer[scoredTerm]
	idf      []float32
	common   []bool
	// serverNames lists, under its first term, each run of terms that
	// names a server of the catalog ([Index.findServerNames]), whose terms
	// weigh serverNameWeight in a query that has them in order.
	serverNames map[int32][][]int32
	scales      []toolScales
	// synonyms[t] are the terms of t's synonym group, or the category
	// that t is an instance of, whose tools t's scored postings include
	// ([Index.withSynonyms]).
	synonyms map[int32][]int32
	// topics[t] are the terms of the words of topic t ([Index.withTopic]);
	// broad[t] is the term of topic t read at large, narrow the topic of
	// such a term ([Index.broadTopic]).
	topics        map[int32][]int32
	broad, narrow map[int32]int32
	// groups are the groups of tools alike but for the numbers in their
	// names, made from the field lengths of the tools (lengths, until
	// then) on the first search.
	grouping sync.Once
	groups   toolGroups
	lengths  [][numFields]int64
	// sorted are the terms that occur in tools, in key order, sorted on
	// the first search with a word that no tool has ([Index.prefixTerms]).
	sortingTerms  sync.Once
	sorted        []int32
	sortedLeading []uint32
	// sortedLetters are the letters of each sorted term ([letterSet]);
	// byFirstAndLength lists the positions in sorted of the terms that
	// begin with an ASCII letter, by that letter and their length
	// ([lengthBucket]).
	sortedLetters    []uint32
	byFirstAndLength [][]int32

	// folded finds the names by their folded form, made on the first
	// search ([Index.foldNames]).
	foldingNames sync.Once
	folded       foldedNames

	// pruneFrom is the number of postings of a query's finding terms from
	// which a search computes a floor ([Index.floor]): defaultPruneFrom,
	// or zero in tests that compute one for every search.
	pruneFrom int

	states      sync.Pool // of *searchState
	scratchPool sync.Pool // of *groupScratch
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
// no tokenizing and hashes only tool names and distinct terms; it reads every
// count once, to check it and to sum the length of each tool's fields (value
// terms left out, see [isValueTerm]), and keeps the postings of cat without
// copying them, so cat must not change afterwards. For a catalog of more
// than 32,768 postings (about 1,500 tools of twenty terms), up to three
// goroutines, as many as GOMAXPROCS lets run beside the caller, help with
// that sweep while the caller hashes; they are done when NewIndex returns.
// A search scores the postings of its own terms only. NewIndex fails with an error
// wrapping [ErrInvalidDocument] when the counts are malformed (an empty
// name; an empty or repeated term; a tool position out of range or not
// increasing; a negative count; a term counted in no field), the first such
// fault in the order of cat's terms, and [ErrDuplicateName] when names
// collide.
func NewIndex(cat CatalogCounts) (*Index, error) {
	n := len(cat.Tools)
	if n >= math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d tools is more than an index holds", ErrInvalidDocument, n)
	}
	ix := newNamedIndex(n)
	// The first term that is empty or listed twice, and its error.
	badTerm, termErr := len(cat.Terms), error(nil)
	lengths, badPostings, err := sumLengths(cat.Terms, n, func() error {
		for i, tool := range cat.Tools {
			if err := ix.addNames(int32(i), tool.Name, tool.Alias); err != nil {
				return err
			}
		}
		if badTerm, termErr = ix.addTerms(cat.Terms); termErr == nil {
			ix.weighTerms() // while the helpers sweep
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case badTerm <= badPostings && termErr != nil:
		return nil, termErr
	case badPostings < len(cat.Terms):
		return nil, postingsError(&cat.Terms[badPostings], ix.names)
	}
	ix.weighTools(lengths)
	return ix, nil
}

// addTerms numbers the terms of a catalog and keeps their postings. It
// returns the first term that is empty or listed twice, and its error, or
// len(terms) and nil.
func (ix *Index) addTerms(terms []TermPostings) (int, error) {
	ix.terms = newDictionary(len(terms) + synonymTerms)
	ix.postings = make([][]ToolTerm, len(terms), len(terms)+synonymTerms)
	for t := range terms {
		tp := &terms[t]
		if tp.Term == "" {
			return t, fmt.Errorf("%w: empty term", ErrInvalidDocument)
		}
		if _, added := ix.terms.add(tp.Term); !added {
			return t, fmt.Errorf("%w: term %q listed twice", ErrInvalidDocument, tp.Term)
		}
		ix.postings[t] = tp.Tools[:len(tp.Tools):len(tp.Tools)]
	}
	return len(terms), nil
}

// NewIndexFromCounts builds an index from per-tool counts in registration
// order: [NewIndex] of their [NewCatalogCounts]. It does no tokenizing, but
// hashes every term of every tool; prefer [NewIndex] with counts merged
// ahead of time for large catalogs.
func NewIndexFromCounts(counts []Counts) (*Index, error) {
	return NewIndex(mergeCounts(counts, false))
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

	// Arrange the counts by term, in tool order within a term.
	terms := a.terms.len()
	ix.terms = a.terms
	start := make([]int32, terms+1)
	for i := range a.occs {
		start[a.occs[i].term+1]++
	}
	for t := range terms {
		start[t+1] += start[t]
	}
	all := make([]ToolTerm, len(a.occs))
	next := slices.Clone(start[:terms]) // where each term's next posting goes
	ix.postings = make([][]ToolTerm, terms, terms+synonymTerms)
	for t := range terms {
		ix.postings[t] = all[start[t]:start[t+1]:start[t+1]]
	}
	for i := range a.occs {
		o := &a.occs[i]
		all[next[o.term]] = ToolTerm{Tool: o.tool, Counts: o.counts}
		next[o.term]++
	}
	ix.weigh(lengths)
	return ix, nil
}

// weigh finds the synonyms of the index's terms and weighs them
// ([Index.weighTerms]), and sets the scales of every tool, whose fields have
// the given lengths ([Index.weighTools]).
func (ix *Index) weigh(lengths [][numFields]int64) {
	ix.weighTerms()
	ix.weighTools(lengths)
}

// weighTerms finds the synonyms of the index's terms and sets the inverse
// document frequency (times [termWeight]) and commonness of every term.
func (ix *Index) weighTerms() {
	n := len(ix.names)
	ix.synonyms = ix.findSynonyms()
	ix.topics, ix.broad, ix.narrow = ix.findTopics()
	ix.scored = make([]atomic.Pointer[scoredTerm], len(ix.postings))
	ix.idf = make([]float32, len(ix.postings))
	ix.common = make([]bool, len(ix.postings))
	servers := newToolServers(ix.names)
	for t, p := range ix.postings {
		ix.idf[t] = float32(idf(len(p), n) * termWeight(ix.terms.keys[t]))
		ix.common[t] = len(p) >= minCommonTools && servers.common(p)
	}
	ix.serverNames = ix.findServerNames(&servers)
}

// weighTools sets the scales of every tool, whose fields have the given
// lengths, and keeps the lengths for grouping the tools.
func (ix *Index) weighTools(lengths [][numFields]int64) {
	ix.scales = fieldScales(lengths)
	ix.lengths = lengths
}

// group puts the tools in their groups, once, on the first search: building
// reads every count once already, and grouping reads them all again.
func (ix *Index) group() {
	ix.grouping.Do(func() {
		keys := newGroupKeys(len(ix.names))
		for t, p := range ix.postings {
			h, value := keys.termHash(t), isValueTerm(ix.terms.keys[t])
			for i := range p {
				keys.add(p[i].Tool, h, &p[i].Counts, value)
			}
		}
		ix.groups = orderGroups(groupTools(keys, ix.lengths), rarestTerms(ix.postings, len(ix.names)))
		ix.lengths = nil
	})
}

// scoredTerm returns the postings of term t with their scores, scoring them
// on the term's first search. Concurrent first searches may each score the
// term; they compute the same scores and keep the first.
func (ix *Index) scoredTerm(t int32) *scoredTerm {
	if p := ix.scored[t].Load(); p != nil {
		return p
	}
	ix.scored[t].CompareAndSwap(nil, ix.scoreTerm(t))
	return ix.scored[t].Load()
}

// newNamedIndex returns an index for n tools, ready for their names.
func newNamedIndex(n int) *Index {
	return &Index{
		names:     make([]string, n),
		byName:    newDictionary(n),
		named:     make([]toolName, 0, n),
		pruneFrom: defaultPruneFrom,
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
