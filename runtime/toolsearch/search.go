package toolsearch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultLimit is the number of results a search returns when its limit is
// zero or negative.
const DefaultLimit = 5

// Result is a tool found by a search or a lookup.
type Result struct {
	// Name is the tool's catalog name.
	Name string
	// Score is the tool's BM25F score for the query; higher ranks first.
	// A lookup leaves it zero.
	Score float64
	// Fields are the fields in which query terms matched.
	Fields FieldSet
	// Exact reports that the query contained the tool's exact name or
	// model-facing name (or, for a lookup, that it was named).
	Exact bool
}

// exactBit marks, in a search's per-tool field set, a tool named exactly by
// the query; it is outside the bits of the fields.
const exactBit FieldSet = 1 << 7

// ErrUnknownTool is wrapped by the error of [Index.Lookup] when a name is not
// in the index.
var ErrUnknownTool = errors.New("unknown tool")

// Search returns the tools that best match query, at most limit of them
// ([DefaultLimit] when limit <= 0), best first. Tools whose exact name or
// model-facing name the query contains come first (a name that is one
// ordinary word, such as "help", counts only when it is the whole query);
// the rest are ranked by score, and equal scores keep registration order.
// Stop words find nothing; a word common in the catalog finds a tool only
// when the query's rarer words find none (and otherwise adds to the scores
// of the tools they find); a word that only frames a request ("please",
// "help", "tell me") counts only when no other word finds a tool. A
// query without words (empty, blank, ".*") finds nothing but exact names.
func (ix *Index) Search(query string, limit int) []Result {
	return ix.AppendSearch(nil, query, limit)
}

// AppendSearch is [Index.Search] that appends its results to dst and returns
// the extended slice. Once the query's terms have been searched before, it
// allocates only when dst lacks room.
func (ix *Index) AppendSearch(dst []Result, query string, limit int) []Result {
	if limit <= 0 {
		limit = DefaultLimit
	}
	st := ix.state()
	defer ix.states.Put(st)
	ix.matchNames(st, query)
	ix.matchTerms(st, query)
	top := st.selectTop(limit)
	dst = slices.Grow(dst, len(top))
	for _, c := range top {
		dst = append(dst, Result{
			Name:   ix.names[c.tool],
			Score:  float64(st.scores[c.tool]),
			Fields: st.fields[c.tool] &^ exactBit,
			Exact:  c.exact,
		})
	}
	st.clear()
	return dst
}

// matchNames marks the tools whose exact name or model-facing name the query
// contains. A name is matched as a word of the query: a run of characters
// other than white space, quotes, brackets and clause punctuation, tried also
// without a trailing full stop or colon. A name that is one ordinary word
// counts only when it is the whole query or quoted ("help", `help`): in a
// sentence it is just that word.
func (ix *Index) matchNames(st *searchState, query string) {
	if id, ok := ix.byName.lookupString(strings.TrimSpace(query)); ok {
		st.touch(ix.named[id].tool, exactBit)
	}
	rest := query
	for len(rest) > 0 {
		i := strings.IndexFunc(rest, isNameRune)
		if i < 0 {
			return
		}
		start := len(query) - len(rest) + i
		rest = rest[i:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !isNameRune(r) })
		if end < 0 {
			end = len(rest)
		}
		word := rest[:end]
		rest = rest[end:]
		for {
			if id, ok := ix.byName.lookupString(word); ok {
				if !ix.named[id].word || quoted(query, start, start+len(word)) {
					st.touch(ix.named[id].tool, exactBit)
				}
				break
			}
			trimmed := strings.TrimRight(word, ".:")
			if trimmed == word || trimmed == "" {
				break
			}
			word = trimmed
		}
	}
}

// quoted reports whether query[start:end] is enclosed in a pair of the same
// quote character.
func quoted(query string, start, end int) bool {
	if start == 0 || end >= len(query) {
		return false
	}
	switch q := query[start-1]; q {
	case '"', '\'', '`':
		return query[end] == q
	}
	return false
}

// isNameRune reports whether r may be part of a tool name as a query
// mentions it.
func isNameRune(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', '"', '\'', '`', '(', ')', '[', ']', '{', '}', '<', '>',
		',', ';', '!', '?', 0x85, 0xA0:
		return false
	}
	return true
}

// matchTerms adds the score of every query term to the tools it occurs in;
// each distinct term counts once. A common term adds to the tools that the
// query's rarer terms find, and finds tools itself only when they find none;
// a word that only frames a request ([isRequestWord]) counts only then.
func (ix *Index) matchTerms(st *searchState, query string) {
	st.scan.reset(query)
	st.queryTerms = st.queryTerms[:0]
	st.weakTerms = st.weakTerms[:0]
	rare := 0 // the query's terms are rare ones, then common ones
	for st.scan.next() {
		t, ok := ix.terms.lookup(st.scan.term)
		if !ok || containsTerm(st.queryTerms, t) || containsTerm(st.weakTerms, t) {
			continue
		}
		switch {
		case isRequestWord(st.scan.term):
			st.weakTerms = append(st.weakTerms, t)
		case ix.common[t]:
			st.queryTerms = append(st.queryTerms, t)
		default:
			st.queryTerms = append(st.queryTerms, t)
			last := len(st.queryTerms) - 1
			st.queryTerms[rare], st.queryTerms[last] = st.queryTerms[last], st.queryTerms[rare]
			rare++
		}
	}
	found := rare > 0
	if !found && len(st.queryTerms) == 0 {
		st.queryTerms = append(st.queryTerms, st.weakTerms...)
	}
	for i, t := range st.queryTerms {
		for _, p := range ix.scoredPostings(t) {
			if i >= rare && found && st.fields[p.tool]&^exactBit == 0 {
				continue // a common term, and the tool found by no rarer one
			}
			st.touch(p.tool, p.fields)
			st.scores[p.tool] += p.score
		}
	}
}

func containsTerm(terms []int32, t int32) bool {
	for _, u := range terms {
		if u == t {
			return true
		}
	}
	return false
}

// Lookup returns exactly the named tools, each once, in the order first
// named; a name may be a catalog name or a model-facing name. When names
// include tools that are not in the index it returns the others and an error
// wrapping [ErrUnknownTool] that lists the missing names.
func (ix *Index) Lookup(names ...string) ([]Result, error) {
	results := make([]Result, 0, len(names))
	var missing []string
	st := ix.state()
	defer ix.states.Put(st)
	for _, name := range names {
		id, ok := ix.byName.lookupString(name)
		if !ok {
			missing = append(missing, name)
			continue
		}
		tool := ix.named[id].tool
		if st.fields[tool] != 0 {
			continue // named before
		}
		st.touch(tool, exactBit)
		results = append(results, Result{Name: ix.names[tool], Exact: true})
	}
	st.clear()
	if len(missing) > 0 {
		return results, fmt.Errorf("%w: %s", ErrUnknownTool, quoteAll(missing))
	}
	return results, nil
}

func quoteAll(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}
