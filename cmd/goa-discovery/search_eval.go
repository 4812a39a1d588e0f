package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// evalDepth is the rank cut-off of the evaluation metrics.
const evalDepth = 5

// evalReport is the outcome of evaluating search on a query set. Recall@k is
// the share of a query's gold tools in its top k; hit@5 whether any is in the
// top 5; MRR@5 the reciprocal rank of the first gold tool in the top 5 (0
// when none is); each is averaged over queries. Latencies are over every
// search of every timed pass.
type evalReport struct {
	Tools     int     `json:"tools"`
	Queries   int     `json:"queries"`
	RecallAt1 float64 `json:"recall_at_1"`
	RecallAt5 float64 `json:"recall_at_5"`
	MRRAt5    float64 `json:"mrr_at_5"`
	HitAt5    float64 `json:"hit_at_5"`
	P50US     float64 `json:"p50_us"`
	P99US     float64 `json:"p99_us"`
	BuildMS   float64 `json:"build_ms"`
}

// evaluate scores the top 5 of every query, then times passes more rounds
// of the same searches.
func evaluate(ix *toolsearch.Index, queries []catalogfile.Query, passes int) evalReport {
	r := evalReport{Queries: len(queries)}
	results := make([]toolsearch.Result, 0, evalDepth)
	for _, q := range queries {
		results = ix.AppendSearch(results[:0], q.Text, evalDepth)
		m := scoreRanking(results, q.Gold)
		r.RecallAt1 += m.recallAt1
		r.RecallAt5 += m.recallAt5
		r.MRRAt5 += m.reciprocalRank
		r.HitAt5 += m.hit
	}
	n := float64(len(queries))
	r.RecallAt1 /= n
	r.RecallAt5 /= n
	r.MRRAt5 /= n
	r.HitAt5 /= n

	latencies := make([]time.Duration, 0, passes*len(queries))
	for range passes {
		for _, q := range queries {
			start := time.Now()
			results = ix.AppendSearch(results[:0], q.Text, evalDepth)
			latencies = append(latencies, time.Since(start))
		}
	}
	slices.Sort(latencies)
	r.P50US = percentile(latencies, 0.50)
	r.P99US = percentile(latencies, 0.99)
	return r
}

// rankingScore holds the metrics of one query.
type rankingScore struct {
	recallAt1, recallAt5, reciprocalRank, hit float64
}

// scoreRanking measures a ranking against the gold tools of its query.
func scoreRanking(results []toolsearch.Result, gold []string) rankingScore {
	var s rankingScore
	found := 0
	for rank, res := range results {
		if rank >= evalDepth || !slices.Contains(gold, res.Name) {
			continue
		}
		found++
		if rank == 0 {
			s.recallAt1 = 1 / float64(len(gold))
		}
		if s.reciprocalRank == 0 {
			s.reciprocalRank = 1 / float64(rank+1)
			s.hit = 1
		}
	}
	s.recallAt5 = float64(found) / float64(len(gold))
	return s
}

// percentile returns the p-th quantile of sorted latencies in microseconds,
// by the nearest-rank method.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return float64(sorted[i].Nanoseconds()) / 1000
}

func (r evalReport) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	return enc.Encode(r)
}

func (r evalReport) writeText(w io.Writer) error {
	_, err := fmt.Fprintf(w,
		"tools %d, queries %d, index built in %.2f ms\n"+
			"recall@1 %.3f  recall@5 %.3f  MRR@5 %.3f  hit@5 %.3f\n"+
			"latency p50 %.1f µs  p99 %.1f µs\n",
		r.Tools, r.Queries, r.BuildMS, r.RecallAt1, r.RecallAt5, r.MRRAt5, r.HitAt5, r.P50US, r.P99US)
	return err
}
