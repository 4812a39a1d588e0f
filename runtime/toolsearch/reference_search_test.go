package toolsearch

import (
	"fmt"
	"slices"
	"testing"
)

// referenceSearch is [Index.AppendSearch] by scoring every posting of every
// query term from its counts, tool by tool, with maps, and sorting every
// tool found: the search must return exactly its results, scores to the
// bit, however it reaches them (groups of tools alike, pruning).
func referenceSearch(ix *Index, query string, limit int) []Result {
	if limit <= 0 {
		limit = DefaultLimit
	}
	st := ix.newState()
	ix.matchNames(st, query)
	exact := make(map[int32]bool)
	for _, tool := range st.exact {
		exact[tool] = true
	}
	st.scan.reset(query)
	var rare, common, request []int32
	for st.scan.next() {
		t, ok := ix.terms.lookup(st.scan.term)
		if !ok || slices.Contains(rare, t) || slices.Contains(common, t) || slices.Contains(request, t) {
			continue
		}
		switch {
		case isRequestWord(st.scan.term):
			request = append(request, t)
		case ix.common[t]:
			common = append(common, t)
		default:
			rare = append(rare, t)
		}
	}
	finders, adders := rare, common
	switch {
	case len(rare) == 0 && len(common) > 0:
		finders, adders = common, nil
	case len(rare) == 0:
		finders, adders = request, nil
	}
	const weight = float32(1) // every query term's
	scores := make(map[int32]float32)
	fields := make(map[int32]FieldSet)
	for _, t := range finders {
		for _, p := range ix.postings[t] {
			s := termScore(ix.idf[t], &p.Counts, &ix.scales[p.Tool])
			scores[p.Tool] += float32(weight * s)
			fields[p.Tool] |= p.Counts.fields()
		}
	}
	for _, t := range adders {
		for _, p := range ix.postings[t] {
			if _, found := fields[p.Tool]; found {
				s := termScore(ix.idf[t], &p.Counts, &ix.scales[p.Tool])
				scores[p.Tool] += float32(weight * s)
				fields[p.Tool] |= p.Counts.fields()
			}
		}
	}
	var all []candidate
	for tool := range fields {
		all = append(all, candidate{tool: tool, score: scores[tool], exact: exact[tool]})
	}
	for tool := range exact {
		if _, found := fields[tool]; !found {
			all = append(all, candidate{tool: tool, exact: true})
		}
	}
	slices.SortFunc(all, func(a, b candidate) int {
		if a.before(b) {
			return -1
		}
		return 1
	})
	out := []Result{}
	for _, c := range all[:min(limit, len(all))] {
		out = append(out, Result{Name: ix.names[c.tool], Score: float64(c.score), Fields: fields[c.tool], Exact: c.exact})
	}
	return out
}

// repeated makes a catalog of n tools by repeating docs, renaming copies.
func repeated(docs []Document, n int) []Document {
	out := make([]Document, n)
	for i := range out {
		d := docs[i%len(docs)]
		if c := i / len(docs); c > 0 {
			d.Name = fmt.Sprintf("%s.copy%d", d.Name, c)
		}
		out[i] = d
	}
	return out
}

// sameRanking reports whether got ranks as want does: the same tools in the
// same order with the same fields and the same scores.
func sameRanking(got, want []Result) bool {
	return slices.Equal(got, want)
}

// checkAgainstReference compares the rankings of ix with those of
// referenceSearch.
func checkAgainstReference(t *testing.T, ix *Index, queries []string, limits []int) {
	t.Helper()
	for _, q := range queries {
		for _, limit := range limits {
			if got, want := ix.Search(q, limit), referenceSearch(ix, q, limit); !sameRanking(got, want) {
				t.Errorf("Search(%.60q, %d):\n got %v\nwant %v", q, limit, got, want)
			}
		}
	}
}

// TestSearchMatchesReference checks the search against the reference model
// of its ranking, on the test catalog, on a catalog of ties, and on the dev
// set repeated to 4,000 tools with every dev request: the guard for any
// faster way of reaching the same results.
func TestSearchMatchesReference(t *testing.T) {
	queries := []string{"weather", "convert units", "customer records trends", "files.list help", "help",
		"records_lookup weather city", "please help", "the", "", "convert convert currencies units temperature",
		"send an email about the weather in a city to a recipient with a thumbnail image"}
	checkAgainstReference(t, mustIndex(t, testCatalog()), queries, []int{1, 2, 5, 20})

	var ties []Document
	for i := range 300 {
		ties = append(ties, Document{Name: fmt.Sprintf("t%d", i), Description: []string{"Print a report.", "Print a weekly report.", "Mail a report.", "Print."}[i%4]})
	}
	checkAgainstReference(t, mustIndex(t, ties), []string{"print report", "report", "weekly report mail", "print t7 t8"}, []int{1, 5, 50})

	docs, dev := loadDevSet(t)
	devQueries := make([]string, len(dev))
	for i, q := range dev {
		devQueries[i] = q.Query
	}
	checkAgainstReference(t, mustIndex(t, repeated(docs, 4_000)), devQueries, []int{1, 5, 12})
}
