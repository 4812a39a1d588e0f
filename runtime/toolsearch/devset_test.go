package toolsearch

import (
	"bufio"
	"encoding/json"
	"hash/fnv"
	"os"
	"slices"
	"testing"
)

// devDir is the directory of the tool-search development set, kept in the
// repository (testdata/devset, see its README).
const devDir = "../../testdata/devset/"

// devQuery is one request of the dev set.
type devQuery struct {
	Query string   `json:"query"`
	Gold  []string `json:"gold"`
	ID    string   `json:"id"`
}

// devHalf returns the half (0 or 1) of the dev set a request belongs to: a
// hash of its id, so the split is fixed and independent of file order.
func devHalf(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() & 1)
}

// loadDevSet reads the dev catalog and requests.
func loadDevSet(t testing.TB) ([]Document, []devQuery) {
	t.Helper()
	var docs []Document
	devLines(t, devDir+"tools.jsonl", func(line []byte) error {
		var d struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		docs = append(docs, Document{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
		return nil
	})
	var queries []devQuery
	devLines(t, devDir+"queries.jsonl", func(line []byte) error {
		var q devQuery
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		queries = append(queries, q)
		return nil
	})
	return docs, queries
}

func devLines(t testing.TB, path string, fn func([]byte) error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if err := fn(sc.Bytes()); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// devMetrics are recall@5 and hit@5 averaged over requests.
type devMetrics struct {
	n                int
	recall1, recall5 float64
	hit5, mrr5       float64
}

func (m *devMetrics) add(results []Result, gold []string) {
	m.n++
	found := 0
	first := 0
	for rank, r := range results {
		if rank < 5 && slices.Contains(gold, r.Name) {
			found++
			if first == 0 {
				first = rank + 1
			}
		}
	}
	if first == 1 {
		m.recall1 += 1 / float64(len(gold))
	}
	if first > 0 {
		m.hit5++
		m.mrr5 += 1 / float64(first)
	}
	m.recall5 += float64(found) / float64(len(gold))
}

func (m devMetrics) mean() (r1, r5, mrr, hit float64) {
	n := float64(max(m.n, 1))
	return m.recall1 / n, m.recall5 / n, m.mrr5 / n, m.hit5 / n
}

// evalDev returns the metrics of the whole dev set and of each half.
func evalDev(ix *Index, queries []devQuery) (all devMetrics, halves [2]devMetrics) {
	results := make([]Result, 0, 5)
	for _, q := range queries {
		results = ix.AppendSearch(results[:0], q.Query, 5)
		all.add(results, q.Gold)
		halves[devHalf(q.ID)].add(results, q.Gold)
	}
	return all, halves
}

// TestDevSetQuality measures search on the dev set, whole and in its two
// halves, and checks the whole against the figures README gives.
func TestDevSetQuality(t *testing.T) {
	docs, queries := loadDevSet(t)
	ix := mustIndex(t, docs)
	all, halves := evalDev(ix, queries)
	for i, m := range []devMetrics{all, halves[0], halves[1]} {
		r1, r5, mrr, hit := m.mean()
		t.Logf("%s (%d requests): recall@1 %.3f recall@5 %.3f MRR@5 %.3f hit@5 %.3f", [...]string{"all", "half 0", "half 1"}[i], m.n, r1, r5, mrr, hit)
	}
	const wantRecall5, wantHit5 = 0.907, 0.921
	if _, r5, _, hit := all.mean(); r5 < wantRecall5 || hit < wantHit5 {
		t.Errorf("recall@5 %.3f, hit@5 %.3f, want at least %.3f and %.3f", r5, hit, wantRecall5, wantHit5)
	}
}
