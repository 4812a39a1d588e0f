package toolsearch

import (
	"slices"
	"strings"
	"testing"
)

func TestBoundScores(t *testing.T) {
	for _, c := range []struct {
		name     string
		scores   []float32
		max, min float32
	}{
		{name: "none"},
		{name: "three", scores: []float32{1, 3, 2}, max: 3, min: 1},
		{name: "ties", scores: []float32{2, 2, 1, 2}, max: 2, min: 1},
		{name: "negative", scores: []float32{-1, -3}, max: -1, min: -3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if s := boundScores(c.scores); s.max != c.max || s.min != c.min {
				t.Errorf("bounds %+v, want max %v min %v", s, c.max, c.min)
			}
		})
	}
}

func TestBound(t *testing.T) {
	for _, c := range []struct {
		b    termBounds
		w    float32
		want float32
	}{
		{termBounds{max: 3, min: 1}, 1, 3},
		{termBounds{max: 3, min: 1}, 0.5, 1.5},
		{termBounds{max: 3, min: 1}, -1, 0}, // absent: zero
		{termBounds{max: -1, min: -3}, -1, 3},
		{termBounds{max: -1, min: -3}, 1, 0},
	} {
		if got := c.b.bound(c.w); got != c.want {
			t.Errorf("%+v.bound(%v) = %v, want %v", c.b, c.w, got, c.want)
		}
	}
}

// pruneAlways makes the searches of ix compute a floor however few postings
// their terms have, and returns ix.
func pruneAlways(ix *Index) *Index {
	ix.pruneFrom = 0
	return ix
}

// TestSearchMatchesReferenceRandomPruned is TestSearchMatchesReferenceRandom
// with a floor computed for every search.
func TestSearchMatchesReferenceRandomPruned(t *testing.T) {
	for seed := range uint64(300) {
		checkRandomCatalog(t, seed, true)
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

// variedCatalog is distinct with copies whose descriptions also differ in
// length, so that the copies of a tool score differently: pruning then
// meets few ties.
func variedCatalog(docs []Document, n int) []Document {
	out := distinct(docs, n)
	for i := range out {
		if c := i / len(docs); c > 0 {
			out[i].Description += strings.Repeat(" filler", c%7)
		}
	}
	return out
}

// TestFloorBoundsRanking checks the floor, the bounds of the words of 64
// groups and the essential terms of dev requests against the reference
// ranking of every tool found: at least limit tools reach the floor, every
// tool ranked by group scores at most the bound of its group's word, and
// every tool that reaches the floor has an essential term. It also checks
// that the floor leaves terms out for some requests and skips words for
// some, which is what makes search faster.
func TestFloorBoundsRanking(t *testing.T) {
	docs, dev := loadDevSet(t)
	ix := pruneAlways(mustIndex(t, variedCatalog(docs, 10_000)))
	ref := newReference(ix)
	ref.noFill = true // the floor and bounds are those of the rarer words' ranking
	const limit = 5
	pruned, skipped := 0, 0
	for i, q := range dev {
		if i%4 != 0 {
			continue // a quarter of the requests keep the test short
		}
		st := ix.state()
		ix.matchNames(st, q.Query)
		ix.queryTerms(st, q.Query)
		ix.markAloneTools(st)
		floor := ix.floor(st, limit)
		ix.chooseEssential(st, floor)
		if slices.Contains(st.essential, false) {
			pruned++
		}
		all := ref.search(q.Query, len(ix.names))
		if len(all) >= limit && !(all[limit-1].Score >= float64(floor)) {
			t.Errorf("%.60q: floor %v above the score %v of the tool ranked %d", q.Query, floor, all[limit-1].Score, limit)
		}
		bound := st.bound
		for _, res := range all {
			id, _ := ix.byName.lookupString(res.Name)
			tool := ix.named[id].tool
			g := ix.groups.of[tool]
			if !st.alone.has(tool) && !(float64(bound[g>>6]) >= res.Score) {
				t.Errorf("%.60q: %s scores %v, above the bound %v of its word", q.Query, res.Name, res.Score, bound[g>>6])
			}
		}
		for _, w := range bound {
			if w > 0 && w < floor {
				skipped++
				break
			}
		}
		clear(bound)
		for _, res := range all {
			if res.Score < float64(floor) || res.Exact {
				continue
			}
			id, _ := ix.byName.lookupString(res.Name)
			tool := ix.named[id].tool
			found := st.alone.has(tool) // ranked alone, not by group
			for j, w := range st.finders {
				_, has := ix.scoredTerm(w.term).findGroup(ix.groups.of[tool], ix.groups.len())
				found = found || st.essential[j] && has
			}
			if !found {
				t.Errorf("%.60q: %s scores %v, above the floor %v, without an essential term", q.Query, res.Name, res.Score, floor)
			}
		}
		st.clear()
		ix.states.Put(st)
	}
	if pruned == 0 {
		t.Error("no request leaves a finding term out")
	}
	if skipped == 0 {
		t.Error("no request has a word that its floor skips")
	}
}

// TestSearchMatchesReferencePruned is TestSearchMatchesReference with a
// floor computed for every search, on catalogs where it leaves most terms
// out: 10,000 tools whose copies score differently, and the dev set repeated
// to 100,000 tools with copies that differ outside their names (left out
// with -short and with the race detector).
func TestSearchMatchesReferencePruned(t *testing.T) {
	docs, dev := loadDevSet(t)
	queries := make([]string, len(dev))
	for i, q := range dev {
		queries[i] = q.Query
	}
	for _, c := range []struct {
		name    string
		size    int
		catalog func() []Document
		limits  []int
	}{
		{"varied 10,000", 10_000, func() []Document { return variedCatalog(docs, 10_000) }, []int{1, 5, 12}},
		{"distinct 100,000", 100_000, func() []Document { return distinct(docs, 100_000) }, []int{1, 5, 12}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.size > 10_000 && (!longTests || raceDetector) {
				t.Skip("100,000 tools: a long test, run with -tags long and without the race detector")
			}
			catalog := c.catalog()
			checkAgainstReference(t, pruneAlways(mustIndex(t, catalog)), queries, c.limits)
		})
	}
}
