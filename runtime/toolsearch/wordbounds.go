package toolsearch

import "math/bits"

// markFound marks the groups of the essential finding terms in the words
// whose bound reaches floor, every word without a floor (the bounds are
// zero then), and lists the words with groups found for ranking.
func (ix *Index) markFound(st *searchState, floor float32) {
	bound, found := st.bound, st.found
	for i, q := range st.finders {
		if !st.essential[i] {
			continue
		}
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

// addLiveWords adds the weighted scores of an essential term to its groups
// in the words whose bound reaches floor.
func addLiveWords(scores, bound []float32, floor float32, sc *scoredTerm, weight float32) {
	gScores := sc.gScores
	for _, w := range sc.words {
		if bound[w.index] < floor {
			continue
		}
		base, j := w.index<<6, w.first
		for m := w.mask; m != 0; m &= m - 1 {
			scores[base+int32(bits.TrailingZeros64(m))] += float32(weight * gScores[j])
			j++
		}
	}
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
