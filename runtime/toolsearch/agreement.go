package toolsearch

// agreementDepth is the k of the agreement measure: the top k of each
// ranking are compared.
const agreementDepth = 10

// agreementSamples is the most tools used as pseudo-queries, spread evenly
// over the catalog.
const agreementSamples = 200

// agreementWork bounds the multiply-adds the measure spends on vector
// similarity, so a large catalog samples fewer tools.
const agreementWork = 100_000_000

// Gates of [FusionWeight]: below agreementGate the embedder takes no part;
// from agreementFull on it takes an equal share.
const (
	agreementGate = 0.5
	agreementFull = 0.9
)

// FusionWeight is the embedder's share of a hybrid fusion for an agreement
// with the lexical ranking: 0 below 0.5 (an embedder that ranks the
// catalog's own tools unlike the lexical index is not trusted with a share),
// rising linearly to 1 at 0.9 and above.
func FusionWeight(agreement float64) float64 {
	switch {
	case agreement < agreementGate:
		return 0
	case agreement >= agreementFull:
		return 1
	}
	return (agreement - agreementGate) / (agreementFull - agreementGate)
}

// measureAgreement measures how far the embedder ranks the catalog as the
// lexical index does: each sampled tool's text is a pseudo-query, ranked by
// the index and by vector similarity to the tool's vector, and the share of
// the lexical top 10 (the tool itself left out) that the embedder's top 10
// also holds is averaged over the samples. Pseudo-queries the lexical index
// finds nothing else for are left out. It reports false when the catalog
// cannot tell: fewer than twice agreementDepth tools (a top 10 of a few
// holds most of them, and any two rankings would agree), or no pseudo-query
// left.
func (h *HybridIndex) measureAgreement(tools []EmbeddingTool) (float64, bool) {
	n := len(h.vectors)
	if n < 2*agreementDepth {
		return 0, false
	}
	samples := min(agreementSamples, n, max(16, agreementWork/(n*len(h.vectors[0]))))
	var sum float64
	counted := 0
	for s := range samples {
		i := int32(s * n / samples)
		var lexical []int32
		for _, r := range h.lexical.Search(tools[i].Text, agreementDepth+1) {
			id, _ := h.lexical.byName.lookupString(r.Name)
			if t := h.lexical.named[id].tool; t != i && len(lexical) < agreementDepth {
				lexical = append(lexical, t)
			}
		}
		if len(lexical) == 0 {
			continue
		}
		dense := make(map[int32]bool, agreementDepth)
		for _, t := range nearestOf(h.vectors, h.vectors[i], agreementDepth+1) {
			if t != i && len(dense) < agreementDepth {
				dense[t] = true
			}
		}
		common := 0
		for _, t := range lexical {
			if dense[t] {
				common++
			}
		}
		sum += float64(common) / float64(len(lexical))
		counted++
	}
	if counted == 0 {
		return 0, false
	}
	return sum / float64(counted), true
}
