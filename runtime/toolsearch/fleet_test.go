package toolsearch

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// fleetDir is the MCP fleet set: the tools/list of public MCP servers, kept
// per server and pooled, and requests from their authors' text
// (testdata/mcpfleet, see its README).
const fleetDir = "../../testdata/mcpfleet/"

// loadFleetTools reads a catalog file of the fleet set.
func loadFleetTools(t testing.TB, path string) []Document {
	t.Helper()
	var docs []Document
	devLines(t, path, func(line []byte) error {
		var d struct {
			Name        string          `json:"name"`
			Title       string          `json:"title"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Source      string          `json:"source"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		docs = append(docs, Document{Name: d.Name, Title: d.Title, Description: d.Description, Parameters: d.Parameters})
		return nil
	})
	return docs
}

// loadFleet reads the pooled catalog and the requests of the fleet set.
func loadFleet(t testing.TB) ([]Document, []devQuery) {
	t.Helper()
	docs := loadFleetTools(t, fleetDir+"tools.jsonl")
	var queries []devQuery
	devLines(t, fleetDir+"queries.jsonl", func(line []byte) error {
		var q devQuery
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		queries = append(queries, q)
		return nil
	})
	return docs, queries
}

// fleetServer returns the server of a pooled name ("github" of
// "github.create_issue").
func fleetServer(name string) string {
	server, _, _ := strings.Cut(name, ".")
	return server
}

// fleetServers returns the servers of the set in catalog order.
func fleetServers(docs []Document) []string {
	var servers []string
	for _, d := range docs {
		if s := fleetServer(d.Name); !slices.Contains(servers, s) {
			servers = append(servers, s)
		}
	}
	return servers
}

// shortResults counts the requests that share a content word with at least
// five tools of ix and for which search returns fewer than five tools.
func shortResults(ix *Index, queries []devQuery) (short, sharing int, missed []string) {
	for _, q := range queries {
		if ix.widestTermTools(q.Query) < 5 {
			continue
		}
		sharing++
		if n := len(ix.Search(q.Query, 5)); n < 5 {
			short++
			missed = append(missed, q.Query)
		}
	}
	return short, sharing, missed
}

// widestTermTools returns the most tools that one of the query's words
// finds by its own term, frame words aside.
func (ix *Index) widestTermTools(query string) int {
	widest := 0
	for _, term := range Terms(query) {
		if referenceFrameWord(term) {
			continue
		}
		if t, ok := ix.terms.lookupString(term); ok {
			widest = max(widest, len(ix.postings[t]))
		}
	}
	return widest
}

// TestFleetQuality measures search on the fleet set: the pooled catalog,
// each server's requests as a subset of it, and the requests that share a
// content word with five tools or more and get fewer than five.
func TestFleetQuality(t *testing.T) {
	docs, queries := loadFleet(t)
	ix := mustIndex(t, docs)
	var all devMetrics
	perServer := make(map[string]*devMetrics)
	for _, q := range queries {
		results := ix.Search(q.Query, 5)
		all.add(results, q.Gold)
		s := fleetServer(q.Gold[0])
		if perServer[s] == nil {
			perServer[s] = &devMetrics{}
		}
		perServer[s].add(results, q.Gold)
		if !slices.ContainsFunc(results, func(r Result) bool { return slices.Contains(q.Gold, r.Name) }) {
			t.Logf("miss %q: gold %v, got %v", q.Query, q.Gold, resultNames(results))
		}
	}
	r1, r5, mrr, hit := all.mean()
	t.Logf("fleet (%d tools, %d requests): recall@1 %.3f recall@5 %.3f MRR@5 %.3f hit@5 %.3f", len(docs), all.n, r1, r5, mrr, hit)
	const wantHit, wantServerHit = fleetWantHit, fleetWantServerHit
	if hit < wantHit {
		t.Errorf("hit@5 %.3f, want at least %.3f", hit, wantHit)
	}
	for _, s := range fleetServers(docs) {
		m := perServer[s]
		if m == nil {
			continue
		}
		_, r5, mrr, hit := m.mean()
		t.Logf("  %s (%d requests): recall@5 %.3f MRR@5 %.3f hit@5 %.3f", s, m.n, r5, mrr, hit)
		if hit < wantServerHit {
			t.Errorf("%s: hit@5 %.3f, want at least %.3f", s, hit, wantServerHit)
		}
	}
	short, sharing, missed := shortResults(ix, queries)
	t.Logf("%d of %d requests sharing a content word with 5+ tools get fewer than 5: %q", short, sharing, missed)
	if float64(short) > fleetWantShort*float64(sharing) {
		t.Errorf("%d of %d requests sharing a content word with 5+ tools get fewer than 5, want at most %.0f%%", short, sharing, 100*fleetWantShort)
	}
}

func resultNames(results []Result) []string {
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = r.Name
	}
	return names
}

// The fleet set's targets: hit@5 on the whole set, per server on the whole
// pool and in a pool that one server dominates, and the share of requests
// sharing a content word with five tools that get fewer than five.
const (
	fleetWantHit       = 0.95
	fleetWantServerHit = 0.90
	fleetWantShort     = 0.02
)

// TestFleetDominantServer pools each server of twenty tools or more with
// the servers of fewer than ten, so that it holds over a quarter of the pool and
// more tools than any other, and checks that its requests find their tools
// there at the per-server target; it logs the same requests on the server
// alone beside.
func TestFleetDominantServer(t *testing.T) {
	docs, queries := loadFleet(t)
	size := make(map[string]int)
	for _, d := range docs {
		size[fleetServer(d.Name)]++
	}
	for _, big := range fleetServers(docs) {
		if size[big] < 20 {
			continue
		}
		var pool, alone []Document
		for _, d := range docs {
			switch s := fleetServer(d.Name); {
			case s == big:
				pool, alone = append(pool, d), append(alone, d)
			case size[s] < 10:
				pool = append(pool, d)
			}
		}
		var mine []devQuery
		for _, q := range queries {
			if !slices.ContainsFunc(q.Gold, func(g string) bool { return fleetServer(g) != big }) {
				mine = append(mine, q)
			}
		}
		pooled, own := mustIndex(t, pool), mustIndex(t, alone)
		var inPool, onItsOwn devMetrics
		for _, q := range mine {
			inPool.add(pooled.Search(q.Query, 5), q.Gold)
			onItsOwn.add(own.Search(q.Query, 5), q.Gold)
		}
		_, r5p, _, hitp := inPool.mean()
		_, r5a, _, hita := onItsOwn.mean()
		t.Logf("%s (%d of %d tools, %d requests): pooled recall@5 %.3f hit@5 %.3f, alone %.3f %.3f", big, len(alone), len(pool), len(mine), r5p, hitp, r5a, hita)
		if hitp < fleetWantServerHit {
			t.Errorf("%s: hit@5 %.3f pooled (%.3f alone), want at least %.3f", big, hitp, hita, fleetWantServerHit)
		}
	}
}
