package toolsearch_test

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/benchcatalog"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// TestSearchMatchesReferencePooled checks that search ranks every dev
// request as the reference model does on catalogs pooled from 28 servers
// ([benchcatalog.Pooled]): copies renamed and reworded, each server's under
// its own namespace, as a gateway pools them. With pruned, a floor is
// computed for every search, however few its postings.
func TestSearchMatchesReferencePooled(t *testing.T) {
	docs, queries := devDocuments(t), devQueries(t)
	for _, c := range []struct {
		name   string
		size   int
		pruned bool
		limits []int
	}{
		{"pooled 10,000", 10_000, false, []int{1, 5, 12}},
		{"pooled 10,000 pruned", 10_000, true, []int{1, 5, 12}},
		{"pooled 100,000", 100_000, false, []int{5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.size > 10_000 && (!toolsearch.LongTests || toolsearch.RaceDetector) {
				t.Skip("100,000 tools: a long test, run with -tags long and without the race detector")
			}
			ix, err := toolsearch.NewIndexFromDocuments(benchcatalog.Pooled(docs, c.size))
			if err != nil {
				t.Fatal(err)
			}
			if c.pruned {
				toolsearch.PruneAlways(ix)
			}
			toolsearch.CheckAgainstReference(t, ix, queries, c.limits)
		})
	}
}
