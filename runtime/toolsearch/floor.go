package toolsearch

import (
	"cmp"
	"math"
	"slices"
)

// Search reads every posting of a query's finding terms, but it need not
// mark every group they find. Before accumulating, it computes a floor, a
// score that at least limit tools reach: the exact scores, summed as
// accumulating sums them, of the best few groups of the strongest finding
// terms. Any term adds to a group at most its bound: its highest weighted
// score, or zero for a group without it. Taking finding terms in increasing
// order of their bounds, those whose bounds, summed in query order with the
// adding terms', stay below the floor cannot bring a group that only they
// find up to it: only the groups of the other finding terms (the essential
// ones) are marked found, and the others add to the found groups only, as
// adding terms do. Fewer groups found means fewer to rank and to add to; no
// score changes, since a group found is summed exactly as before, in query
// order, and the groups not found rank below the floor.
//
// The floor also bounds words of 64 groups: a term keeps, for each word of
// its groups, the highest score among them, and a search sums those of its
// terms in query order for every word ([Index.boundWords]). A word whose
// bound stays below the floor holds no group that can reach it, so no term
// marks or adds to it. Groups are numbered by content ([orderGroups]) so
// that a word holds tools that share their words and the bound is close to
// the best score in it.
//
// The bounds hold in float32: rounding to nearest is monotone in each
// operand, so a sum of scores each at most its term's bound, in the same
// order, is at most the sum of the bounds.

// topGroups is how many of its best groups a term keeps for seeding the
// floor.
const topGroups = 8

// pruneFrom is the number of postings of a query's finding terms from which
// the search computes a floor: below it, computing one costs more than it
// saves. Tests set it to zero.
var pruneFrom = 8192

// seedTerms is how many finding terms, those of the highest bounds, seed
// the floor with their best groups.
const seedTerms = 3

// termBounds are what pruning knows of a term's scores in its groups: the
// highest and the lowest, and the groups of the highest, best first, with
// their scores.
type termBounds struct {
	max, min float32
	top      []seed
}

// boundScores returns the bounds of the scores of the increasing groups.
func boundScores(groups []int32, scores []float32) termBounds {
	var s termBounds
	if len(groups) == 0 {
		return s
	}
	s.max, s.min = scores[0], scores[0]
	top := make([]seed, 0, min(topGroups, len(groups)))
	for i, g := range groups {
		sc := scores[i]
		s.max, s.min = max(s.max, sc), min(s.min, sc)
		if len(top) == topGroups && sc <= top[len(top)-1].score {
			continue // groups increase: an equal score ranks after
		}
		if len(top) == topGroups {
			top = top[:len(top)-1]
		}
		j := len(top)
		for j > 0 && top[j-1].score < sc {
			j--
		}
		top = slices.Insert(top, j, seed{group: g, score: sc})
	}
	s.top = top
	return s
}

// bound returns the most that a term of weight w with these bounds adds to
// a group's score: never below zero, the term being absent from most.
func (s *termBounds) bound(w float32) float32 {
	return max(0, w*s.max, w*s.min)
}

// seedFloor returns a score that at least limit tools ranked by group reach,
// or -Inf when it finds none or the finding terms have fewer than
// [pruneFrom] postings: the limit-th best exact score of the tools of
// the best groups of the seedTerms finding terms of the highest bounds, the
// groups chosen by the sums of their scores in those terms. The tools ranked
// alone must be marked.
func (ix *Index) seedFloor(st *searchState, limit int) float32 {
	postings := 0
	for _, q := range st.finders {
		postings += len(ix.scoredTerm(q.term).groups)
	}
	if postings < pruneFrom {
		return float32(math.Inf(-1))
	}
	st.order = st.order[:0]
	for i, q := range st.finders {
		st.order = append(st.order, boundedTerm{index: i, bound: ix.scoredTerm(q.term).bounds.bound(q.weight)})
	}
	slices.SortStableFunc(st.order, func(a, b boundedTerm) int { return -cmp.Compare(a.bound, b.bound) })
	st.order = st.order[:min(seedTerms, len(st.order))]
	slices.SortFunc(st.order, func(a, b boundedTerm) int { return a.index - b.index }) // query order
	st.seeds = st.seeds[:0]
	for _, o := range st.order {
		q := st.finders[o.index]
		s := &ix.scoredTerm(q.term).bounds
		for _, c := range s.top {
			j := slices.IndexFunc(st.seeds, func(d seed) bool { return d.group == c.group })
			if j < 0 {
				j = len(st.seeds)
				st.seeds = append(st.seeds, seed{group: c.group})
			}
			st.seeds[j].score += float32(q.weight * c.score)
		}
	}
	// The best seeds by those sums, as many as hold limit tools ranked by
	// group, rescored exactly: the limit-th best score of their tools.
	byScore := func(a, b seed) int { return -cmp.Compare(a.score, b.score) }
	slices.SortFunc(st.seeds, byScore)
	n, tools := 0, 0
	for ; n < len(st.seeds) && tools < limit; n++ {
		tools += ix.groupTools(st, st.seeds[n].group, limit-tools)
	}
	if tools < limit {
		return float32(math.Inf(-1))
	}
	best := st.seeds[:n]
	for i := range best {
		best[i].score = ix.groupScore(st, best[i].group)
	}
	slices.SortFunc(best, byScore)
	tools = 0
	for _, c := range best {
		if tools += ix.groupTools(st, c.group, limit-tools); tools == limit {
			return c.score
		}
	}
	panic("unreachable")
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

// groupScore returns the score of group g, found by the query's finding
// terms, summed as accumulate sums it.
func (ix *Index) groupScore(st *searchState, g int32) float32 {
	var score float32
	for _, terms := range [2][]weightedTerm{st.finders, st.adders} {
		for _, q := range terms {
			sc := ix.scoredTerm(q.term)
			if i, ok := sc.findGroup(g, len(st.scores)); ok {
				score += float32(q.weight * sc.gScores[i])
			}
		}
	}
	return score
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
