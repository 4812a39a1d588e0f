package toolsearch

import "math/bits"

// accumulateWords is accumulate with a floor: only the words of 64 groups
// whose bound ([Index.boundWords]) reaches it are read, and those with
// groups found are listed for ranking.
func (ix *Index) accumulateWords(st *searchState, floor float32) {
	st.listed = true
	bound := st.bound
	scores, found := st.scores, st.found
	for i, q := range st.finders {
		if st.essential[i] {
			for _, w := range ix.scoredTerm(q.term).words {
				if bound[w.index] >= floor {
					if found[w.index] == 0 {
						st.foundWords = append(st.foundWords, w.index)
					}
					found[w.index] |= w.mask
				}
			}
		}
	}
	for i, q := range st.finders {
		sc := ix.scoredTerm(q.term)
		if !st.essential[i] {
			addFoundWords(scores, found, sc, q.weight)
			continue
		}
		gScores := sc.gScores
		for _, w := range sc.words {
			if bound[w.index] < floor {
				continue
			}
			base, j := w.index<<6, w.first
			for m := w.mask; m != 0; m &= m - 1 {
				scores[base+int32(bits.TrailingZeros64(m))] += float32(q.weight * gScores[j])
				j++
			}
		}
	}
	for _, q := range st.adders {
		addFoundWords(scores, found, ix.scoredTerm(q.term), q.weight)
	}
	clear(bound)
}

// boundWords returns, for every word of 64 groups, the most that a group in
// it scores: the highest weighted score in the word of every finding term,
// then the bound of every adding term ([termBounds.bound]), summed in the
// order in which accumulate sums a group's scores. A word without a finding
// term holds no group found, and its bound stays zero; a word with one has
// a positive bound, weights and scores being positive (the inverse document
// frequency is, and so is every count of a term found). Adding terms are
// the common words, whose groups are spread over most words: bounding them
// word by word would read them all, and ties them no closer.
func (ix *Index) boundWords(st *searchState) []float32 {
	bound := st.bound
	for _, q := range st.finders {
		sc := ix.scoredTerm(q.term)
		for i, w := range sc.words {
			bound[w.index] += q.weight * sc.wordMax[i] // both positive
		}
	}
	if len(st.adders) == 0 {
		return bound
	}
	for w, b := range bound {
		if b == 0 {
			continue
		}
		for _, q := range st.adders {
			b += ix.scoredTerm(q.term).bounds.bound(q.weight)
		}
		bound[w] = b
	}
	return bound
}
