package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
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
// when none is); each is averaged over queries. The query set is also split
// in two halves by a hash of each query's id (of its text when it has none),
// a fixed split that tells tuning to one half from a gain on both. Latencies
// are over every search of every timed pass. With --embeddings the
// metrics are those of hybrid search, repeated in Hybrid beside those of
// the lexical ranking alone on the same queries, and Embedding says how the
// catalog was embedded and fused.
type evalReport struct {
	Tools   int `json:"tools"`
	Queries int `json:"queries"`
	evalMetrics
	BuildMS   float64          `json:"build_ms"`
	Lexical   *evalMetrics     `json:"lexical,omitempty"`
	Hybrid    *evalMetrics     `json:"hybrid,omitempty"`
	Embedding *embeddingReport `json:"embedding,omitempty"`
}

// evalMetrics are the quality and latency of one ranking on a query set.
type evalMetrics struct {
	RecallAt1 float64 `json:"recall_at_1"`
	RecallAt5 float64 `json:"recall_at_5"`
	MRRAt5    float64 `json:"mrr_at_5"`
	HitAt5    float64 `json:"hit_at_5"`
	// Half0RecallAt5 and the rest are recall@5 and hit@5 of each half.
	Half0RecallAt5 float64 `json:"half0_recall_at_5"`
	Half0HitAt5    float64 `json:"half0_hit_at_5"`
	Half1RecallAt5 float64 `json:"half1_recall_at_5"`
	Half1HitAt5    float64 `json:"half1_hit_at_5"`
	P50US          float64 `json:"p50_us"`
	P99US          float64 `json:"p99_us"`
}

// evaluate scores the top 5 of every query, then times passes more rounds
// of the same searches.
func evaluate(ctx context.Context, search searcher, queries []catalogfile.Query, passes int) (evalMetrics, error) {
	var r evalMetrics
	results := make([]toolsearch.Result, 0, evalDepth)
	var halves [2]struct{ n, recallAt5, hit float64 }
	var err error
	for _, q := range queries {
		if results, err = search(ctx, results[:0], q.Text, evalDepth); err != nil {
			return r, err
		}
		m := scoreRanking(results, q.Gold)
		r.RecallAt1 += m.recallAt1
		r.RecallAt5 += m.recallAt5
		r.MRRAt5 += m.reciprocalRank
		r.HitAt5 += m.hit
		h := &halves[queryHalf(q)]
		h.n++
		h.recallAt5 += m.recallAt5
		h.hit += m.hit
	}
	n := float64(len(queries))
	r.RecallAt1 /= n
	r.RecallAt5 /= n
	r.MRRAt5 /= n
	r.HitAt5 /= n
	r.Half0RecallAt5, r.Half0HitAt5 = halves[0].recallAt5/max(halves[0].n, 1), halves[0].hit/max(halves[0].n, 1)
	r.Half1RecallAt5, r.Half1HitAt5 = halves[1].recallAt5/max(halves[1].n, 1), halves[1].hit/max(halves[1].n, 1)

	latencies := make([]time.Duration, 0, passes*len(queries))
	for range passes {
		for _, q := range queries {
			start := time.Now()
			if results, err = search(ctx, results[:0], q.Text, evalDepth); err != nil {
				return r, err
			}
			latencies = append(latencies, time.Since(start))
		}
	}
	slices.Sort(latencies)
	r.P50US = percentile(latencies, 0.50)
	r.P99US = percentile(latencies, 0.99)
	return r, nil
}

// queryHalf returns the half, 0 or 1, of the query set that q belongs to: the
// low bit of the FNV-1a hash of its id, or of its text when it has no id.
func queryHalf(q catalogfile.Query) int {
	key := q.ID
	if key == "" {
		key = q.Text
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() & 1)
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
	if err := r.writeMetrics(w, ""); err != nil || r.Embedding == nil {
		return err
	}
	e := r.Embedding
	_, err := fmt.Fprintf(w, "embeddings %s: %d tools embedded, %d cached, in %.0f ms; %s\n",
		e.Model, e.Embedded, e.Cached, e.EmbedMS, e.fusion())
	if err != nil {
		return err
	}
	return evalReport{Tools: r.Tools, Queries: r.Queries, BuildMS: r.BuildMS, evalMetrics: *r.Lexical}.writeMetrics(w, "lexical alone: ")
}

func (r evalReport) writeMetrics(w io.Writer, title string) error {
	_, err := fmt.Fprintf(w, title+
		"tools %d, queries %d, index built in %.2f ms\n"+
		"recall@1 %.3f  recall@5 %.3f  MRR@5 %.3f  hit@5 %.3f\n"+
		"half 0: recall@5 %.3f  hit@5 %.3f;  half 1: recall@5 %.3f  hit@5 %.3f\n"+
		"latency p50 %.1f µs  p99 %.1f µs\n",
		r.Tools, r.Queries, r.BuildMS, r.RecallAt1, r.RecallAt5, r.MRRAt5, r.HitAt5,
		r.Half0RecallAt5, r.Half0HitAt5, r.Half1RecallAt5, r.Half1HitAt5, r.P50US, r.P99US)
	return err
}
