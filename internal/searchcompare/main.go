package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// ranker returns the names of the top k tools for a query.
type ranker func(query string, k int) ([]string, error)

func main() {
	toolsPath := flag.String("tools", "", "tool catalog (JSON lines or an MCP tools/list result)")
	queriesPath := flag.String("queries", "", "query set: JSON lines of {query, gold, id}")
	flag.Parse()
	if err := run(*toolsPath, *queriesPath); err != nil {
		fmt.Fprintln(os.Stderr, "searchcompare:", err)
		os.Exit(1)
	}
}

func run(toolsPath, queriesPath string) error {
	f, err := os.Open(toolsPath)
	if err != nil {
		return err
	}
	docs, err := catalogfile.ReadTools(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", toolsPath, err)
	}
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		return err
	}
	q, err := os.Open(queriesPath)
	if err != nil {
		return err
	}
	queries, err := catalogfile.ReadQueries(q, func(name string) bool { _, err := ix.Lookup(name); return err == nil })
	q.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", queriesPath, err)
	}
	bl, err := newBleve(docs)
	if err != nil {
		return err
	}
	defer bl.Close()
	rankers := []struct {
		name string
		rank ranker
	}{
		{"goa-discovery runtime/toolsearch", func(query string, k int) ([]string, error) {
			var names []string
			for _, r := range ix.Search(query, k) {
				names = append(names, r.Name)
			}
			return names, nil
		}},
		{"plain BM25 (k1 1.2, b 0.75), name and description", newBM25(docs).rank},
		{"bleve (English analyzer, name 2x)", bl.rank},
	}
	fmt.Printf("%d tools, %d requests\n\n", len(docs), len(queries))
	fmt.Println("| ranking | recall@1 | recall@5 | MRR@5 | hit@5 | p50 |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, r := range rankers {
		m, err := evaluate(r.rank, queries)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.3f | %s |\n", r.name, m.recall1, m.recall5, m.mrr5, m.hit5, m.p50)
	}
	return nil
}

type metrics struct {
	recall1, recall5, mrr5, hit5 float64
	p50                          time.Duration
}

// evaluate ranks every query's top 5 three times and scores the first.
func evaluate(rank ranker, queries []catalogfile.Query) (metrics, error) {
	var m metrics
	var latencies []time.Duration
	for pass := range 3 {
		for _, q := range queries {
			start := time.Now()
			names, err := rank(q.Text, 5)
			latencies = append(latencies, time.Since(start))
			if err != nil {
				return m, err
			}
			if pass > 0 {
				continue
			}
			found, first := 0, 0
			for i, n := range names {
				if slices.Contains(q.Gold, n) {
					found++
					if first == 0 {
						first = i + 1
					}
				}
			}
			if first == 1 {
				m.recall1 += 1 / float64(len(q.Gold))
			}
			if first > 0 {
				m.hit5++
				m.mrr5 += 1 / float64(first)
			}
			m.recall5 += float64(found) / float64(len(q.Gold))
		}
	}
	n := float64(len(queries))
	m.recall1, m.recall5, m.mrr5, m.hit5 = m.recall1/n, m.recall5/n, m.mrr5/n, m.hit5/n
	slices.Sort(latencies)
	m.p50 = latencies[len(latencies)/2]
	return m, nil
}
