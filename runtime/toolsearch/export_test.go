package toolsearch

import "testing"

// ScoreAll scores every term of ix and sorts its terms, as the first
// searches of all of them, and of a word that no tool has, would.
func ScoreAll(ix *Index) {
	for t := range ix.postings {
		ix.scoredTerm(int32(t))
	}
	ix.sortedTerms()
}

// CheckAgainstReference checks that ix ranks every query as the reference
// model does, at every limit ([checkAgainstReference]), for the tests of
// package toolsearch_test.
func CheckAgainstReference(t *testing.T, ix *Index, queries []string, limits []int) {
	t.Helper()
	checkAgainstReference(t, ix, queries, limits)
}

// PruneAlways makes every search of ix compute a floor, however few
// postings its terms have ([pruneAlways]).
func PruneAlways(ix *Index) { pruneAlways(ix) }

// LongTests and RaceDetector report how the tests were built: with the long
// build tag, and with the race detector.
const (
	LongTests    = longTests
	RaceDetector = raceDetector
)
