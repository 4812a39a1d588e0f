package main

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// bm25 is plain BM25 over a tool's name and description as one text:
// lower-cased runs of letters and digits, no stop words, no stemming.
type bm25 struct {
	names    []string
	postings map[string][]posting
	lengths  []float64
	avg      float64
}

type posting struct {
	doc int
	tf  float64
}

const k1, b = 1.2, 0.75

func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newBM25(docs []toolsearch.Document) *bm25 {
	x := &bm25{postings: make(map[string][]posting)}
	total := 0.0
	for i, d := range docs {
		x.names = append(x.names, d.Name)
		ws := words(d.Name + " " + d.Description)
		counts := make(map[string]float64)
		for _, w := range ws {
			counts[w]++
		}
		for w, c := range counts {
			x.postings[w] = append(x.postings[w], posting{doc: i, tf: c})
		}
		x.lengths = append(x.lengths, float64(len(ws)))
		total += float64(len(ws))
	}
	x.avg = total / float64(max(len(docs), 1))
	return x
}

func (x *bm25) rank(query string, k int) ([]string, error) {
	scores := make(map[int]float64)
	n := float64(len(x.names))
	seen := make(map[string]bool)
	for _, w := range words(query) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := x.postings[w]
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			norm := 1 - b + b*x.lengths[p.doc]/x.avg
			scores[p.doc] += idf * p.tf * (k1 + 1) / (p.tf + k1*norm)
		}
	}
	docs := make([]int, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, c int) int {
		if scores[a] != scores[c] {
			if scores[a] > scores[c] {
				return -1
			}
			return 1
		}
		return a - c
	})
	var names []string
	for _, d := range docs[:min(k, len(docs))] {
		names = append(names, x.names[d])
	}
	return names, nil
}
