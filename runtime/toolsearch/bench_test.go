package toolsearch_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/benchcatalog"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// devSet is the directory of the tool-search development set, kept in the
// repository (testdata/devset).
const devSet = "../../testdata/devset/"

// catalogSizes are the catalog sizes of the benchmarks.
var catalogSizes = []int{1_000, 10_000, 100_000}

// devDocuments reads the dev catalog.
func devDocuments(b testing.TB) []toolsearch.Document {
	b.Helper()
	var docs []toolsearch.Document
	readJSONLines(b, devSet+"tools.jsonl", func(line []byte) error {
		var t struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(line, &t); err != nil {
			return err
		}
		docs = append(docs, toolsearch.Document{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		return nil
	})
	return docs
}

// devQueries reads the requests of the dev set.
func devQueries(b testing.TB) []string {
	b.Helper()
	var queries []string
	readJSONLines(b, devSet+"queries.jsonl", func(line []byte) error {
		var q struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		queries = append(queries, q.Query)
		return nil
	})
	return queries
}

func readJSONLines(b testing.TB, path string, fn func([]byte) error) {
	b.Helper()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		if err := fn(sc.Bytes()); err != nil {
			b.Fatalf("%s:%d: %v", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
}

// measureCPU runs the benchmark loop body on one locked OS thread and
// reports, beside the wall time, the thread's CPU time per operation
// (cpu-ns/op), which other load on the machine does not inflate, and the
// whole process's (proc-cpu-ns/op: goroutines that help, and the garbage
// collector, included).
func measureCPU(b *testing.B, body func()) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := threadCPU()
	pstart, pok := processCPU()
	n := 0
	for b.Loop() {
		body()
		n++
	}
	if end, ok2 := threadCPU(); ok && ok2 && n > 0 {
		b.ReportMetric(float64((end-start).Nanoseconds())/float64(n), "cpu-ns/op")
	}
	if end, ok2 := processCPU(); pok && ok2 && n > 0 {
		b.ReportMetric(float64((end-pstart).Nanoseconds())/float64(n), "proc-cpu-ns/op")
	}
}

func countAll(b *testing.B, docs []toolsearch.Document) []toolsearch.Counts {
	b.Helper()
	counts := make([]toolsearch.Counts, len(docs))
	for i, d := range docs {
		c, err := toolsearch.Count(d)
		if err != nil {
			b.Fatal(err)
		}
		counts[i] = c
	}
	return counts
}

// BenchmarkSearch measures one top-5 search with the dev requests in turn,
// once every request has been searched (so every term scored) before; the
// result slice is reused, so allocations per search must be zero. Beside the
// mean it reports the median wall time of a search (p50-ns).
func BenchmarkSearch(b *testing.B) {
	docs, queries := devDocuments(b), devQueries(b)
	for _, n := range catalogSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			benchSearch(b, benchcatalog.Repeated(docs, n), queries)
		})
	}
}

// BenchmarkSearchDistinct is BenchmarkSearch on a catalog without tools
// alike but for their names: every copy of a dev tool also has its own word
// in its description, so that no two tools share all their terms outside the
// name field and no search work is shared.
func BenchmarkSearchDistinct(b *testing.B) {
	docs, queries := devDocuments(b), devQueries(b)
	for _, n := range catalogSizes[1:] {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			benchSearch(b, benchcatalog.Distinct(docs, n), queries)
		})
	}
}

// BenchmarkSearchShuffled is BenchmarkSearch on a catalog without families
// of tools alike ([benchcatalog.Shuffled]).
func BenchmarkSearchShuffled(b *testing.B) {
	docs, queries := devDocuments(b), devQueries(b)
	for _, n := range catalogSizes[1:] {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			benchSearch(b, benchcatalog.Shuffled(docs, n), queries)
		})
	}
}

// BenchmarkSearchPooled is BenchmarkSearch on a catalog pooled from 28
// servers, their tools renamed and reworded ([benchcatalog.Pooled]).
func BenchmarkSearchPooled(b *testing.B) {
	docs, queries := devDocuments(b), devQueries(b)
	for _, n := range catalogSizes[1:] {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			benchSearch(b, benchcatalog.Pooled(docs, n), queries)
		})
	}
}

func benchSearch(b *testing.B, catalog []toolsearch.Document, queries []string) {
	b.Helper()
	ix, err := toolsearch.NewIndexFromDocuments(catalog)
	if err != nil {
		b.Fatal(err)
	}
	results := make([]toolsearch.Result, 0, toolsearch.DefaultLimit)
	for _, q := range queries {
		results = ix.AppendSearch(results[:0], q, toolsearch.DefaultLimit)
	}
	latencies := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	i := 0
	measureCPU(b, func() {
		start := time.Now()
		results = ix.AppendSearch(results[:0], queries[i%len(queries)], toolsearch.DefaultLimit)
		if len(latencies) < cap(latencies) {
			latencies = append(latencies, time.Since(start))
		}
		i++
	})
	slices.Sort(latencies)
	if len(latencies) > 0 {
		b.ReportMetric(float64(latencies[len(latencies)/2].Nanoseconds()), "p50-ns")
	}
}

// BenchmarkSearchNewSlice is BenchmarkSearch with a fresh result slice per
// search: one allocation, the results.
func BenchmarkSearchNewSlice(b *testing.B) {
	docs, queries := devDocuments(b), devQueries(b)
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range queries {
		_ = ix.Search(q, toolsearch.DefaultLimit)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = ix.Search(queries[i%len(queries)], toolsearch.DefaultLimit)
		i++
	}
}

// BenchmarkBuildFromCounts measures building an index from the precomputed
// counts of a catalog, the start-up cost of generated code.
func BenchmarkBuildFromCounts(b *testing.B) {
	benchBuildFromCounts(b, func(*toolsearch.Index) {})
}

// BenchmarkBuildAndScoreAll measures building an index from counts and then
// scoring every term, as if every term were searched: the most that first
// searches add to a build.
func BenchmarkBuildAndScoreAll(b *testing.B) {
	benchBuildFromCounts(b, toolsearch.ScoreAll)
}

// benchBuildFromCounts measures building an index from the counts of each
// catalog size, then calling then on it.
func benchBuildFromCounts(b *testing.B, then func(*toolsearch.Index)) {
	docs := devDocuments(b)
	for _, n := range catalogSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			counts := toolsearch.NewCatalogCounts(countAll(b, benchcatalog.Repeated(docs, n)))
			b.ReportAllocs()
			measureCPU(b, func() {
				ix, err := toolsearch.NewIndex(counts)
				if err != nil {
					b.Fatal(err)
				}
				then(ix)
			})
		})
	}
}

// BenchmarkBuildFromDocuments measures building an index from tool
// schemas at run time, analysis included.
func BenchmarkBuildFromDocuments(b *testing.B) {
	docs := devDocuments(b)
	for _, n := range catalogSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			catalog := benchcatalog.Repeated(docs, n)
			b.ReportAllocs()
			measureCPU(b, func() {
				if _, err := toolsearch.NewIndexFromDocuments(catalog); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkBuildPooled measures building an index from the tool schemas of
// a catalog pooled from 28 servers ([benchcatalog.Pooled]), analysis
// included, and then its first search, which groups the tools alike and
// numbers the groups by content. It reports the heap that the index then
// holds (live-MB), the catalog's documents and the scratch of searches left
// out.
func BenchmarkBuildPooled(b *testing.B) {
	docs, queries := devDocuments(b), devQueries(b)
	for _, n := range catalogSizes[1:] {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			catalog := benchcatalog.Pooled(docs, n)
			build := func() *toolsearch.Index {
				ix, err := toolsearch.NewIndexFromDocuments(catalog)
				if err != nil {
					b.Fatal(err)
				}
				ix.Search(queries[0], toolsearch.DefaultLimit)
				return ix
			}
			b.ReportAllocs()
			measureCPU(b, func() { build() })
			b.ReportMetric(float64(liveHeap(build))/1e6, "live-MB")
		})
	}
}

// liveHeap returns the bytes of heap that what build returns holds once
// built. Two garbage collections before and after measuring empty the pools,
// the scratch of searches.
func liveHeap[T any](build func() T) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
}

// BenchmarkCount measures analyzing one tool of the dev catalog into its
// counts, as code generation and catalog files do for every tool.
func BenchmarkCount(b *testing.B) {
	docs := devDocuments(b)
	b.ReportAllocs()
	i := 0
	measureCPU(b, func() {
		if _, err := toolsearch.Count(docs[i%len(docs)]); err != nil {
			b.Fatal(err)
		}
		i++
	})
}

// BenchmarkCatalogCounts measures merging the per-tool counts of a catalog
// into its catalog counts.
func BenchmarkCatalogCounts(b *testing.B) {
	docs := devDocuments(b)
	for _, n := range catalogSizes[:2] {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			counts := countAll(b, benchcatalog.Repeated(docs, n))
			b.ReportAllocs()
			measureCPU(b, func() { _ = toolsearch.NewCatalogCounts(counts) })
		})
	}
}

// BenchmarkTerms measures the analyzer on the dev requests.
func BenchmarkTerms(b *testing.B) {
	queries := devQueries(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = toolsearch.Terms(queries[i%len(queries)])
		i++
	}
}

// BenchmarkLookup measures looking up every tool of a 10,000-tool catalog
// by name, as a check that a generated index holds exactly its tools does.
func BenchmarkLookup(b *testing.B) {
	docs := benchcatalog.Repeated(devDocuments(b), 10_000)
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		b.Fatal(err)
	}
	names := make([]string, len(docs))
	for i, d := range docs {
		names[i] = d.Name
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ix.Lookup(names...); err != nil {
			b.Fatal(err)
		}
	}
}
