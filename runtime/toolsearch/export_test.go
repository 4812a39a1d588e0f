package toolsearch

// ScoreAll scores every term of ix, as the first searches of all of them
// would.
func ScoreAll(ix *Index) {
	for t := range ix.postings {
		ix.scoredTerm(int32(t))
	}
}
