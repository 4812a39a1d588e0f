package toolsearch

// ScoreAll scores every term of ix and sorts its terms, as the first
// searches of all of them, and of a word that no tool has, would.
func ScoreAll(ix *Index) {
	for t := range ix.postings {
		ix.scoredTerm(int32(t))
	}
	ix.sortedTerms()
}
