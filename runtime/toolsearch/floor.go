package toolsearch

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Search reads the postings of a query's finding terms, but it need not
// read them all, nor mark every group they find. Before accumulating, it
// computes a floor, a score that at least limit tools reach, and skips what
// cannot reach it.
//
// Words of 64 groups first. A term keeps, for each word of its groups, the
// highest of their scores, and a search sums those of its terms in query
// order for every word ([Index.boundWords]): no group in the word scores
// more. The words of highest bounds are then scored exactly, group by group,
// summed as accumulating sums them, and the limit-th best score of their
// tools is the floor ([Index.wordFloor]). A word whose bound stays below the
// floor holds no group that can reach it, so no term marks or adds to it.
// Groups are numbered by content ([orderGroups]) so that a word holds tools
// that share their words: the bound is then close to the best score in the
// word, and the best words hold the best tools.
//
// Terms next. Any term adds to a group at most its bound: its highest
// weighted score, or zero for a group without it. Taking finding terms in
// increasing order of their bounds, those whose bounds, summed in query
// order with the adding terms', stay below the floor cannot bring a group
// that only they find up to it: only the groups of the other finding terms
// (the essential ones) are marked found, and the others add to the found
// groups only, as adding terms do.
//
// Fewer words read and fewer groups found mean fewer postings to add and
// fewer groups to rank; no score changes, since a group found is summed
// exactly as before, in query order, and the groups skipped or not found
// rank below the floor. The bounds hold in float32: rounding to nearest is
// monotone in each operand, so a sum of scores each at most its term's
// bound, in the same order, is at most the sum of the bounds.

// defaultPruneFrom is the number of postings of a query's finding terms
// from which the search computes a floor ([Index.pruneFrom]): below it,
// computing one costs more than it saves.
const defaultPruneFrom = 8192

// denseFrom and denseWords: a query's finding terms with fewer postings than
// [Index.pruneFrom] still get a floor when they have denseFrom postings or
// more and denseWords a word of 64 groups on average (tools alike in
// content, numbered together), which the words' bounds skip whole.
const (
	denseFrom  = 512
	denseWords = 8
)

// termBounds are what pruning knows of a term's scores in its groups: the
// highest and the lowest.
type termBounds struct {
	max, min float32
}

// boundScores returns the bounds of scores.
func boundScores(scores []float32) termBounds {
	var s termBounds
	if len(scores) == 0 {
		return s
	}
	s.max, s.min = scores[0], scores[0]
	for _, sc := range scores {
		s.max, s.min = max(s.max, sc), min(s.min, sc)
	}
	return s
}

// bound returns the most that a term of weight w with these bounds adds to
// a group's score: never below zero, the term being absent from most.
func (s *termBounds) bound(w float32) float32 {
	return max(0, w*s.max, w*s.min)
}

// floor returns a score that at least limit tools ranked by group reach, or
// -Inf when the finding terms have fewer than [Index.pruneFrom] postings
// and are not dense ([denseFrom]), or none is found. With a floor, st.bound
// holds the bounds of the words ([Index.boundWords]) until accumulating
// clears them.
func (ix *Index) floor(st *searchState, limit int) float32 {
	postings, words := 0, 0
	for _, q := range st.finders {
		sc := ix.scoredTerm(q.term)
		postings, words = postings+len(sc.groups), words+len(sc.words)
	}
	if postings < ix.pruneFrom && (postings < denseFrom || postings < denseWords*words) {
		return float32(math.Inf(-1))
	}
	bound := ix.boundWords(st)
	floor := ix.wordFloor(st, bound, limit)
	if math.IsInf(float64(floor), -1) {
		clear(bound)
	}
	return floor
}

// floorWords is the most words of 64 groups that [Index.wordFloor] scores.
const floorWords = 4

// wordFloor returns a score that at least limit tools ranked by group
// reach: the limit-th best score of those in the floorWords words of
// highest bounds, scored in decreasing order of their bounds until they
// hold limit such tools and the next bound is no higher than that score;
// -Inf when they hold fewer than limit.
func (ix *Index) wordFloor(st *searchState, bound []float32, limit int) float32 {
	// The best words, best first, in one pass over the bounds: a bound
	// above the worst kept is seldom met, so the test is well predicted.
	var best [floorWords]int32
	var worst float32 // the bound of best[floorWords-1], once kept
	n := 0
	for w, b := range bound {
		if b <= worst {
			continue
		}
		if n < floorWords {
			n++
		}
		i := n - 1
		for ; i > 0 && bound[best[i-1]] < b; i-- {
			best[i] = best[i-1]
		}
		best[i] = int32(w)
		if n == floorWords {
			worst = bound[best[n-1]]
		}
	}
	st.seeds = st.seeds[:0]
	floor := float32(math.Inf(-1))
	for _, w := range best[:n] {
		if bound[w] <= floor {
			break
		}
		ix.scoreWord(st, w)
		floor = ix.limitScore(st, limit)
	}
	return floor
}

// limitScore returns the limit-th best score of the tools ranked by group
// in the groups of st.seeds, or -Inf when they are fewer than limit. Only
// the best limit groups can hold the limit-th best tool, each holding one
// at least.
func (ix *Index) limitScore(st *searchState, limit int) float32 {
	best := st.best[:0] // the best groups so far, by their index in seeds, best first
	for i, c := range st.seeds {
		if ix.groupTools(st, c.group, 1) == 0 {
			continue // every member ranked alone
		}
		if len(best) == limit && c.score <= st.seeds[best[limit-1]].score {
			continue
		}
		if len(best) < limit {
			best = append(best, 0)
		}
		j := len(best) - 1
		for ; j > 0 && st.seeds[best[j-1]].score < c.score; j-- {
			best[j] = best[j-1]
		}
		best[j] = int32(i)
	}
	st.best = best
	tools := 0
	for _, b := range best {
		c := st.seeds[b]
		if tools += ix.groupTools(st, c.group, limit-tools); tools == limit {
			return c.score
		}
	}
	return float32(math.Inf(-1))
}

// scoreWord appends to st.seeds the groups of word w that the query's
// finding terms find, each with the sum of their scores, in query order.
// That is the group's score but for the adding terms, which accumulate adds
// after the finding terms: never more than the score, every term adding a
// score of zero or more.
func (ix *Index) scoreWord(st *searchState, w int32) {
	var sums [64]float32
	var found uint64
	for _, q := range st.finders {
		sc := ix.scoredTerm(q.term)
		j, ok := sc.findWord(w, len(st.scores))
		if !ok {
			continue
		}
		e := &sc.words[j]
		i := e.first
		for m := e.mask; m != 0; m &= m - 1 {
			sums[bits.TrailingZeros64(m)] += q.weight * sc.gScores[i]
			i++
		}
		found |= e.mask
	}
	for m := found; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		st.seeds = append(st.seeds, seed{group: w<<6 + int32(b), score: sums[b]})
	}
}

// groupTools returns how many members of group g, at most limit, are ranked
// by group.
func (ix *Index) groupTools(st *searchState, g int32, limit int) int {
	n := 0
	for _, tool := range ix.groups.membersOf(g) {
		if n == limit {
			break
		}
		if !st.alone.has(tool) {
			n++
		}
	}
	return n
}

// chooseEssential marks in st.essential the finding terms whose groups are
// found: all but those, taken in increasing order of their bounds, whose
// bounds summed in query order with the adding terms' stay below floor.
func (ix *Index) chooseEssential(st *searchState, floor float32) {
	st.essential = st.essential[:0]
	for range st.finders {
		st.essential = append(st.essential, true)
	}
	if math.IsInf(float64(floor), -1) {
		return // every term can find a group above it
	}
	st.order = st.order[:0]
	for i, q := range st.finders {
		st.order = append(st.order, boundedTerm{index: i, bound: ix.scoredTerm(q.term).bounds.bound(q.weight)})
	}
	slices.SortStableFunc(st.order, func(a, b boundedTerm) int { return cmp.Compare(a.bound, b.bound) })
	for _, o := range st.order {
		st.essential[o.index] = false
		if ix.boundOfRest(st) >= floor {
			st.essential[o.index] = true
			return
		}
	}
}

// boundOfRest returns the most that a group lacking every essential finding
// term scores: the bounds of the other terms summed in query order.
func (ix *Index) boundOfRest(st *searchState) float32 {
	var sum float32
	for i, q := range st.finders {
		if !st.essential[i] {
			sum += ix.scoredTerm(q.term).bounds.bound(q.weight)
		}
	}
	for _, q := range st.adders {
		sum += ix.scoredTerm(q.term).bounds.bound(q.weight)
	}
	return sum
}

// seed is a group and a score of it.
type seed struct {
	group int32
	score float32
}

// boundedTerm is a finding term, by its index, and its bound.
type boundedTerm struct {
	index int
	bound float32
}
