package toolsearch

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
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
	// Exact reports that the query contained the tool's name or
	// model-facing name, exactly or up to case and separators (or, for a
	// lookup, that it was named).
	Exact bool
}

// ErrUnknownTool is wrapped by the error of [Index.Lookup] when a name is not
// in the index.
var ErrUnknownTool = errors.New("unknown tool")

// Search returns the tools that best match query, at most limit of them
// ([DefaultLimit] when limit <= 0), best first. Tools whose exact name or
// model-facing name the query contains come first (a name that is one
// ordinary word, such as "help", counts only when it is the whole query),
// with those the whole query names up to case and separators
// ([nameMatch]);
// the rest are ranked by score, and equal scores keep registration order.
// Stop words find nothing; a word common in the catalog adds to the scores
// of the tools that the query's rarer words find, and finds tools of its
// own, ranked after theirs, only when they find fewer than limit; a word that only frames a request ("please",
// "help", "tell me") and a function word of another language ("de", "から")
// count for nothing ([Searchable] tells a query of them only); a word
// that no tool has, of four letters or more, stands at a quarter weight for
// the words of the catalog it begins, when it begins at most four ("fahr"
// for "fahrenheit"). A query without words (empty, blank, ".*") finds
// nothing but exact names.
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
	ix.queryTerms(st, query)
	floor := ix.accumulate(st, limit)
	ix.rank(st, limit, floor)
	top := st.sortTop()
	dst = slices.Grow(dst, limit)
	first := len(dst)
	for _, c := range top {
		_, fields, _ := ix.scoreAlone(st, c.tool)
		dst = append(dst, Result{Name: ix.names[c.tool], Score: float64(c.score), Fields: fields, Exact: c.named != notNamed})
	}
	if len(top) < limit && len(st.adders) > 0 {
		dst = ix.fill(st, dst, first, limit)
	}
	st.clear()
	return dst
}

// fill appends to dst, whose results from first are the query's ranking,
// the tools that its common words find ranked after those, up to limit
// results: when the rarer words find fewer tools than the limit, the
// common words find tools too, as they do when a query has only common
// words. Five tools or more have a common word, so a query with one finds
// no fewer than five. The tools ranked keep their ranks and scores.
func (ix *Index) fill(st *searchState, dst []Result, first, limit int) []Result {
	st.heap = st.heap[:0]
	st.all = append(append(st.all[:0], st.rare...), st.common...)
	st.finders, st.adders = st.all, nil
	floor := ix.accumulate(st, limit)
	ix.rank(st, limit, floor)
	for _, c := range st.sortTop() {
		if len(dst)-first == limit {
			break
		}
		if slices.ContainsFunc(dst[first:], func(r Result) bool { return r.Name == ix.names[c.tool] }) {
			continue
		}
		_, fields, _ := ix.scoreAlone(st, c.tool)
		dst = append(dst, Result{Name: ix.names[c.tool], Score: float64(c.score), Fields: fields, Exact: c.named != notNamed})
	}
	return dst
}

// matchNames marks the tools whose name or model-facing name the query
// names, and how ([nameMatch]): the whole query, exactly or up to case and
// separators ([Index.markFolded]), or a word of the query exactly: a run of
// characters other than white space, quotes, brackets and clause
// punctuation, tried also without a trailing full stop or colon. A name
// that is one ordinary word counts only when it is the whole query or
// quoted ("help", `help`): in a sentence it is just that word. A word is
// not folded: in a sentence, "t-test" is the statistical test more often
// than the tool t_test.
func (ix *Index) matchNames(st *searchState, query string) {
	whole := strings.TrimSpace(query)
	if id, ok := ix.byName.lookupString(whole); ok {
		st.markNamed(ix.named[id].tool, namedExactly)
	}
	ix.markFolded(st, whole)
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
		ix.matchWord(st, query, start, word)
	}
}

// matchWord marks the tool whose exact name or model-facing name is word,
// the word of query at start, or word without a trailing full stop or
// colon.
func (ix *Index) matchWord(st *searchState, query string, start int, word string) {
	for {
		if isPlainWord(word) && !quoted(query, start, start+len(word)) {
			return // as a name it would count only quoted: no need to look it up
		}
		if id, ok := ix.byName.lookupString(word); ok {
			if !ix.named[id].word || quoted(query, start, start+len(word)) {
				st.markNamed(ix.named[id].tool, namedWord)
			}
			return
		}
		trimmed := strings.TrimRight(word, ".:")
		if trimmed == word || trimmed == "" {
			return
		}
		word = trimmed
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

// queryTerms sorts the query's terms, each distinct term once, into those
// that find tools and those that add to the scores of the tools found. A
// common term adds to the tools that the query's rarer terms find, and finds
// tools itself only when there are none; a frame word of the request
// ([requestLangs]) is left out; a word that no tool has gives the terms it stands for
// ([Index.standsFor]), after the query's own terms.
// Both lists keep that order, the order in which a tool's scores are summed.
func (ix *Index) queryTerms(st *searchState, query string) {
	// The request's languages matter only to a word of englishToo: they
	// are read on the first.
	langs, read := alwaysLangs, false
	st.scan.reset(query)
	st.rare, st.common = st.rare[:0], st.common[:0]
	st.stands, st.seq = st.stands[:0], st.seq[:0]
	for st.scan.next() {
		if !read && ambiguousTerms[string(st.scan.term)] {
			langs, read = requestLangs(&st.langScan, query), true
		}
		if isFrameTermIn(st.scan.term, langs) {
			continue
		}
		t, ok := ix.terms.lookup(st.scan.term)
		if !ok {
			st.stands = ix.standsFor(st, st.stands)
			st.seq = append(st.seq, -1)
			continue
		}
		// A term the query has weighs 1, or serverNameWeight when it is
		// of a run of terms that names a server ([Index.weighServerNames]):
		// a tool's score is the sum of its scores for the query's terms,
		// each times the term's weight.
		st.seq = append(st.seq, t)
		ix.addQueryTerm(st, weightedTerm{term: t, weight: 1})
	}
	if ix.serverNames != nil {
		ix.weighServerNames(st)
	}
	// The terms that words no tool has stand for come after the query's
	// own, which keep their weight of 1.
	for _, q := range st.stands {
		ix.addQueryTerm(st, q)
	}
	switch {
	case len(st.rare) > 0:
		st.finders, st.adders = st.rare, st.common
	default:
		st.finders, st.adders = st.common, nil
	}
	ix.broadTopic(st)
}

// markAloneTools marks the tools ranked alone for the query: those that have
// a finding or adding term their group does not share.
func (ix *Index) markAloneTools(st *searchState) {
	for _, terms := range [2][]weightedTerm{st.finders, st.adders} {
		for _, q := range terms {
			for _, tool := range ix.scoredTerm(q.term).tools {
				st.markAlone(tool)
			}
		}
	}
}

// accumulate adds the weighted scores of the query's terms to the groups
// that share them, in query order, finding terms first and then adding
// terms, which add only to groups found, and returns a score that at least
// limit tools reach ([Index.floor]). Only the essential finding terms
// ([Index.chooseEssential]) mark the groups they find; the others add to
// found groups only. A tool that has a term its group does not share is
// ranked alone. With a floor, every term reads only the words of 64 groups
// whose bound reaches it ([Index.boundWords]). Without one, the
// essential terms' loops read their postings in order and do not branch on
// them; when some finding terms are not essential, the others read only the
// postings in the words of the bit set where they meet groups found.
func (ix *Index) accumulate(st *searchState, limit int) float32 {
	ix.markAloneTools(st)
	floor := ix.floor(st, limit)
	ix.chooseEssential(st, floor)
	ix.markFound(st, floor)
	// With a floor, only the words whose bound reaches it are read.
	// Without one, when every finding term is essential, the groups found
	// are many and adding to them reads every posting; otherwise only the
	// words where they meet.
	pruned := !math.IsInf(float64(floor), -1)
	addFound := addFoundWords
	if !pruned && !slices.Contains(st.essential, false) {
		addFound = addFoundAll
	}
	scores, found := st.scores, st.found
	for i, q := range st.finders {
		sc := ix.scoredTerm(q.term)
		switch {
		case !st.essential[i]:
			addFound(scores, found, sc, q.weight)
		case pruned:
			addLiveWords(scores, st.bound, floor, sc, q.weight)
		default:
			gScores := sc.gScores[:len(sc.groups)]
			for j, g := range sc.groups {
				scores[g] += float32(q.weight * gScores[j])
			}
		}
	}
	for _, q := range st.adders {
		addFound(scores, found, ix.scoredTerm(q.term), q.weight)
	}
	if pruned {
		clear(st.bound)
	}
	return floor
}

// addFoundAll adds the weighted scores of a term to the groups found,
// reading all its postings without branching on them.
func addFoundAll(scores []float32, found bitSet, sc *scoredTerm, weight float32) {
	gScores := sc.gScores[:len(sc.groups)]
	for i, g := range sc.groups {
		s := float32(weight * gScores[i])
		scores[g] += math.Float32frombits(math.Float32bits(s) & -found.bit(g)) // s if found, else +0
	}
}

// addFoundWords adds the weighted scores of a term to the groups found,
// reading only its postings in the words of groups that it shares with them.
func addFoundWords(scores []float32, found bitSet, sc *scoredTerm, weight float32) {
	gScores := sc.gScores
	for _, w := range sc.words {
		m := found[w.index] & w.mask
		if m == 0 {
			continue
		}
		base := w.index << 6
		for m != 0 {
			b := uint32(bits.TrailingZeros64(m))
			m &= m - 1
			i := w.first + int32(bits.OnesCount64(w.mask&(1<<b-1)))
			scores[base+int32(b)] += float32(weight * gScores[i])
		}
	}
}

// rank keeps the best limit candidates: the tools ranked alone that the
// query finds or names, then the members of the groups found. A group's
// members score alike, so its members are offered in registration order
// until one is not kept; a group below start, which at least limit tools
// reach, is not. Ranking reads the words listed as found and empties them.
func (ix *Index) rank(st *searchState, limit int, start float32) {
	for _, tool := range st.aloneList {
		score, _, found := ix.scoreAlone(st, tool)
		if named := st.nameMatch(tool); found || named != notNamed {
			st.offer(candidate{tool: tool, score: score, named: named}, limit)
		}
	}
	// floor is a score that a group must reach to have a member kept: that
	// of the worst kept candidate once limit are kept, start until then.
	floor := start
	setFloor := func() {
		if h := st.heap; len(h) == limit {
			floor = max(floor, h[0].score)
			if h[0].named != notNamed {
				floor = float32(math.Inf(1))
			}
		}
	}
	setFloor()
	scores, found := st.scores, st.found
	for _, w := range st.foundWords {
		word := found[w]
		found[w] = 0
		for word != 0 {
			g := w<<6 + int32(bits.TrailingZeros64(word))
			word &= word - 1
			score := scores[g]
			scores[g] = 0
			if score < floor {
				continue
			}
			for _, tool := range ix.groups.membersOf(g) {
				if st.alone.has(tool) {
					continue
				}
				if !st.offer(candidate{tool: tool, score: score}, limit) {
					break
				}
			}
			setFloor()
		}
	}
	st.foundWords = st.foundWords[:0]
}

// scoreAlone returns the score of tool for the query, term by term in the
// order of accumulate, the fields its terms matched in, and whether the
// query's finding terms find it.
func (ix *Index) scoreAlone(st *searchState, tool int32) (score float32, fields FieldSet, found bool) {
	g := ix.groups.of[tool]
	for _, q := range st.finders {
		if s, f, ok := ix.scoredTerm(q.term).lookup(g, tool, len(st.scores)); ok {
			score += float32(q.weight * s)
			fields |= f
			found = true
		}
	}
	if !found {
		return 0, 0, false
	}
	for _, q := range st.adders {
		if s, f, ok := ix.scoredTerm(q.term).lookup(g, tool, len(st.scores)); ok {
			score += float32(q.weight * s)
			fields |= f
		}
	}
	return score, fields, true
}

// addQueryTerm adds q to the query's common or rare terms, unless the query
// has its term already.
func (ix *Index) addQueryTerm(st *searchState, q weightedTerm) {
	t := q.term
	if containsTerm(st.rare, t) || containsTerm(st.common, t) {
		return
	}
	switch {
	case ix.common[t]:
		st.common = append(st.common, q)
	default:
		st.rare = append(st.rare, q)
	}
}

func containsTerm(terms []weightedTerm, t int32) bool {
	for _, u := range terms {
		if u.term == t {
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
		if st.alone.has(tool) {
			continue // named before
		}
		st.markAlone(tool)
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

// standsFor appends to dst the terms that the word just scanned, which no
// tool has, stands for: the words of the catalog it begins or derives from
// ([Index.prefixTerms]) at [prefixWeight], else the words it joins
// ([Index.joinedTerms]), else those it is a typing error of
// ([Index.typoTerms]).
func (ix *Index) standsFor(st *searchState, dst []weightedTerm) []weightedTerm {
	term := st.scan.term
	if r, ok := ix.prefixTerms(term); ok {
		for _, t := range ix.sorted[r.start : r.start+r.n] {
			dst = append(dst, weightedTerm{term: t, weight: prefixWeight})
		}
		return dst
	}
	st.typed = appendLowerASCII(st.typed[:0], st.scan.text[st.scan.start:st.scan.pos])
	var ok bool
	if dst, ok = ix.joinedTerms(dst, st.typed, &st.part); ok {
		return dst
	}
	dst, _ = ix.typoTerms(dst, st.typed, term)
	return dst
}

// appendLowerASCII appends s to dst with its ASCII capitals lower-cased.
func appendLowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c |= 0x20
		}
		dst = append(dst, c)
	}
	return dst
}
