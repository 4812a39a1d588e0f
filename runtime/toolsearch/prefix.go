package toolsearch

import (
	"math"
	"slices"
	"strings"
)

// A query word that no tool has stands for the few words of the catalog that
// it begins, as an abbreviation or a stem of theirs: "fahr" for
// "fahrenheit", "dart" for "dartfx", "invented" (invent) for "invention" and
// "inventory". Each of them is searched at prefixWeight, the weight of a
// synonym, when the word has at least minPrefixLen letters and begins at
// most maxPrefixTerms terms: a word that begins more says too little to
// choose among them, and at most 1/prefixWeight terms the word's terms
// together weigh no more than one term the query has itself.
//
// A word that begins no term may be a derived form of one: "windy" (windi)
// of "wind", "rainy" of "rain", "cloudy" of "cloud". It then stands, at the
// same weight, for the longest term of at least minPrefixLen letters that
// it begins with, when at most maxDerivedLetters letters follow it.
const (
	prefixWeight      = 0.25
	minPrefixLen      = 4
	maxPrefixTerms    = 4
	maxDerivedLetters = 2
)

// prefixRange is the run of the index's sorted terms ([Index.sortedTerms])
// that an unknown query word begins.
type prefixRange struct {
	start, n int32
}

// sortedTerms returns the terms that occur in tools, frame words
// ([isAlwaysFrameTerm]) aside, sorted, sorting them on the first search that
// needs them, and the first four bytes of each ([leadingBytes]), which
// narrow a search among them to the terms that share a word's first four
// bytes without reading the terms.
func (ix *Index) sortedTerms() ([]int32, []uint32) {
	ix.sortingTerms.Do(func() {
		sorted := make([]int32, 0, len(ix.postings))
		for t, p := range ix.postings {
			if len(p) > 0 && !isAlwaysFrameTerm([]byte(ix.terms.keys[t])) {
				sorted = append(sorted, int32(t))
			}
		}
		slices.SortFunc(sorted, func(a, b int32) int { return strings.Compare(ix.terms.keys[a], ix.terms.keys[b]) })
		leading := make([]uint32, len(sorted))
		for i, t := range sorted {
			leading[i] = leadingBytes(ix.terms.keys[t])
		}
		letters := make([]uint32, len(sorted))
		buckets := make([][]int32, 26*(maxBucketLen+1))
		for i, t := range sorted {
			key := ix.terms.keys[t]
			letters[i] = letterSet(key)
			if b, ok := lengthBucket(key[0], len(key)); ok {
				buckets[b] = append(buckets[b], int32(i))
			}
		}
		ix.sorted, ix.sortedLeading, ix.sortedLetters, ix.byFirstAndLength = sorted, leading, letters, buckets
	})
	return ix.sorted, ix.sortedLeading
}

// leadingBytes returns the first four bytes of s, big-endian, zeros for the
// bytes s lacks: in the order of the strings, as no term that [Terms] gives
// has a zero byte.
func leadingBytes[S ~string | ~[]byte](s S) uint32 {
	var v uint32
	for i := range 4 {
		v <<= 8
		if i < len(s) {
			v |= uint32(s[i])
		}
	}
	return v
}

// prefixTerms returns the terms that word, a query term that no tool has,
// stands for, and whether there are any: the sorted terms it begins, when it
// is at least minPrefixLen ASCII letters, not a frame word
// ([isAlwaysFrameTerm]), and begins no more than maxPrefixTerms of them; when it
// begins none, the term it is derived from ([Index.baseTerm]).
func (ix *Index) prefixTerms(word []byte) (prefixRange, bool) {
	if len(word) < minPrefixLen || !asciiLetters(word) || isAlwaysFrameTerm(word) {
		return prefixRange{}, false
	}
	sorted, leading := ix.sortedTerms()
	// The terms that word begins share its first four bytes.
	lead := leadingBytes(word)
	lo, _ := slices.BinarySearch(leading, lead)
	hi, _ := slices.BinarySearch(leading[lo:], lead+1)
	if lead == math.MaxUint32 {
		hi = len(leading) - lo
	}
	in := sorted[lo : lo+hi]
	i, _ := slices.BinarySearchFunc(in, word, func(t int32, w []byte) int { return compareKey(ix.terms.keys[t], w) })
	start := lo + i
	n := 0
	for start+n < len(sorted) && hasPrefix(ix.terms.keys[sorted[start+n]], word) {
		if n++; n > maxPrefixTerms {
			return prefixRange{}, false
		}
	}
	if n == 0 {
		return ix.baseTerm(word)
	}
	return prefixRange{start: int32(start), n: int32(n)}, true
}

// baseTerm returns the longest of the sorted terms that word begins with,
// of at least minPrefixLen letters with at most maxDerivedLetters after it,
// and whether there is one.
func (ix *Index) baseTerm(word []byte) (prefixRange, bool) {
	sorted := ix.sorted
	for l := len(word) - 1; l >= minPrefixLen && l >= len(word)-maxDerivedLetters; l-- {
		base := word[:l]
		i, ok := slices.BinarySearchFunc(sorted, base, func(t int32, w []byte) int { return compareKey(ix.terms.keys[t], w) })
		if ok {
			return prefixRange{start: int32(i), n: 1}, true
		}
	}
	return prefixRange{}, false
}

// compareKey compares key with w as strings.Compare does, without
// converting w.
func compareKey(key string, w []byte) int {
	for i := 0; i < len(key) && i < len(w); i++ {
		if key[i] != w[i] {
			if key[i] < w[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(key) < len(w):
		return -1
	case len(key) > len(w):
		return 1
	}
	return 0
}

// hasPrefix reports whether key begins with w.
func hasPrefix(key string, w []byte) bool {
	return len(key) >= len(w) && compareKey(key[:len(w)], w) == 0
}
