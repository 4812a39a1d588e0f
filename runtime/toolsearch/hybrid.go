package toolsearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// rrfK is the constant of reciprocal rank fusion: a tool at rank r (from 1)
// of a ranking earns 1/(rrfK+r). Sixty is the value of the method's
// authors; it keeps one ranking's top from drowning the other's.
const rrfK = 60

// fusionDepth is how many tools of each ranking take part in a fusion, at
// least; a search asking for more fuses that many.
const fusionDepth = 50

// HybridIndex fuses the lexical ranking of an [Index] with the cosine
// similarity of an [Embedder]'s vectors, by reciprocal rank fusion. Tools
// whose exact name the query contains still come first, in their lexical
// order. It is immutable once built and safe for concurrent use. An [Index]
// used without it ranks exactly as before: the embedder is an option, not a
// change of the lexical search.
type HybridIndex struct {
	lexical   *Index
	embedder  Embedder
	vectors   [][]float32 // unit vector of each tool, in the index's order
	agreement float64     // measured agreement with the lexical ranking; -1 when not measured
	weight    float64     // share of the embedder's ranking in the fusion, 0 to 1
}

// HybridOption configures a [HybridIndex].
type HybridOption func(*hybridConfig)

type hybridConfig struct {
	weight    float64
	weightSet bool
}

// WithFusionWeight fuses the embedder's ranking at weight w (0 to 1, the
// lexical ranking's being 1) instead of the weight the index derives from
// the embedder's agreement with the lexical ranking ([HybridIndex.Agreement]).
func WithFusionWeight(w float64) HybridOption {
	return func(c *hybridConfig) { c.weight, c.weightSet = w, true }
}

// NewHybridIndex pairs lexical with the vectors of its tools, taken from cache
// or embedded into it. tools are the index's tools in registration order,
// each named as in the index. It fails with an error wrapping
// [ErrInvalidDocument] when tools do not match the index, and one wrapping
// [ErrEmbedding] when embedding fails.
//
// Unless [WithFusionWeight] sets it, the embedder's share of the fusion is
// derived from its agreement with the lexical ranking on the catalog itself
// ([HybridIndex.Agreement], [FusionWeight]): an embedder that ranks the
// catalog's own tools unlike the lexical index (a weak or mismatched model)
// takes no part, and the hybrid ranking is the lexical one. A catalog too
// small to measure on (under 20 tools, or none whose text finds another
// tool lexically) fuses at equal weight.
func NewHybridIndex(ctx context.Context, lexical *Index, cache *EmbeddingCache, tools []EmbeddingTool, opts ...HybridOption) (*HybridIndex, error) {
	var cfg hybridConfig
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.weightSet && !(cfg.weight >= 0 && cfg.weight <= 1) {
		return nil, fmt.Errorf("%w: fusion weight %v is not between 0 and 1", ErrInvalidDocument, cfg.weight)
	}
	if len(tools) != lexical.Len() {
		return nil, fmt.Errorf("%w: %d tools for an index of %d", ErrInvalidDocument, len(tools), lexical.Len())
	}
	for i, t := range tools {
		if t.Name != lexical.names[i] {
			return nil, fmt.Errorf("%w: tool %d is %q, the index has %q", ErrInvalidDocument, i, t.Name, lexical.names[i])
		}
	}
	vectors, err := cache.toolVectors(ctx, tools)
	if err != nil {
		return nil, err
	}
	h := &HybridIndex{lexical: lexical, embedder: cache.embedder, vectors: vectors, agreement: -1, weight: cfg.weight}
	if !cfg.weightSet {
		h.weight = 1 // equal shares where the catalog cannot tell
		if a, ok := h.measureAgreement(tools); ok {
			h.agreement, h.weight = a, FusionWeight(a)
		}
	}
	return h, nil
}

// Agreement returns the embedder's measured agreement with the lexical
// ranking on the catalog (see [FusionWeight]), or -1 when nothing was
// measured: [WithFusionWeight] set the weight, or the catalog was too small.
func (h *HybridIndex) Agreement() float64 { return h.agreement }

// Weight returns the share of the embedder's ranking in the fusion, from 0
// (the lexical ranking alone) to 1 (equal shares).
func (h *HybridIndex) Weight() float64 { return h.weight }

// Search returns the tools that best match query, at most limit of them
// ([DefaultLimit] when limit <= 0), best first: the tools whose exact name
// the query contains, then the others by their fused score (the Score of
// each result; equal scores keep registration order). It embeds the query
// with one call of the embedder; a blank query finds nothing and calls none,
// nor does any query when the fusion weight is 0: the ranking is then the
// lexical one.
// Fields are those of the lexical match, empty for a tool found only by its
// vector.
func (h *HybridIndex) Search(ctx context.Context, query string, limit int) ([]Result, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	if strings.TrimSpace(query) == "" || h.lexical.Len() == 0 {
		return nil, nil
	}
	if h.weight == 0 {
		return h.lexical.Search(query, limit), nil
	}
	depth := max(limit, fusionDepth)
	lexical := h.lexical.Search(query, depth)
	qv, err := h.embedder.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("%w: query: %w", ErrEmbedding, err)
	}
	if len(qv) != 1 || len(qv[0]) != len(h.vectors[0]) {
		return nil, fmt.Errorf("%w: query: want one vector of dimension %d", ErrEmbedding, len(h.vectors[0]))
	}
	q := slices.Clone(qv[0])
	if !normalize(q) {
		return nil, fmt.Errorf("%w: query: zero or not finite vector", ErrEmbedding)
	}
	dense := h.nearest(q, depth)

	fused := make(map[int32]*fusedTool, len(lexical)+len(dense))
	get := func(tool int32) *fusedTool {
		f := fused[tool]
		if f == nil {
			f = &fusedTool{tool: tool}
			fused[tool] = f
		}
		return f
	}
	for rank, r := range lexical {
		id, _ := h.lexical.byName.lookupString(r.Name)
		f := get(h.lexical.named[id].tool)
		f.score += 1 / float64(rrfK+rank+1)
		f.result = r
		if r.Exact {
			f.exactRank = rank + 1
		}
	}
	for rank, tool := range dense {
		f := get(tool)
		f.score += h.weight / float64(rrfK+rank+1)
	}
	ranked := make([]*fusedTool, 0, len(fused))
	for _, f := range fused {
		ranked = append(ranked, f)
	}
	slices.SortFunc(ranked, func(a, b *fusedTool) int {
		switch {
		case (a.exactRank > 0) != (b.exactRank > 0):
			if a.exactRank > 0 {
				return -1
			}
			return 1
		case a.exactRank != b.exactRank:
			return a.exactRank - b.exactRank
		case a.score != b.score:
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.tool - b.tool)
	})
	out := make([]Result, 0, min(limit, len(ranked)))
	for _, f := range ranked[:min(limit, len(ranked))] {
		out = append(out, Result{
			Name:   h.lexical.names[f.tool],
			Score:  f.score,
			Fields: f.result.Fields,
			Exact:  f.exactRank > 0,
		})
	}
	return out, nil
}

// fusedTool is a tool of either ranking during a fusion.
type fusedTool struct {
	tool      int32
	score     float64
	result    Result // the lexical result; zero when only the vector found it
	exactRank int    // lexical rank (from 1) of an exact name match; 0 otherwise
}

// nearest returns the depth tools whose vectors are most similar to q, most
// similar first, equal similarities in registration order.
func (h *HybridIndex) nearest(q []float32, depth int) []int32 {
	return nearestOf(h.vectors, q, depth)
}

// nearestOf returns the depth vectors most similar to q, by index.
func nearestOf(vectors [][]float32, q []float32, depth int) []int32 {
	type scored struct {
		tool int32
		sim  float32
	}
	all := make([]scored, len(vectors))
	for i, v := range vectors {
		var dot float32
		for j, x := range v {
			dot += x * q[j]
		}
		all[i] = scored{int32(i), dot}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.sim > b.sim:
			return -1
		case a.sim < b.sim:
			return 1
		}
		return 0
	})
	out := make([]int32, min(depth, len(all)))
	for i := range out {
		out[i] = all[i].tool
	}
	return out
}
