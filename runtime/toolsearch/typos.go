package toolsearch

import (
	"math/bits"
	"strings"
)

// People mistype words and run them together: "clsoe tikcet", "creat new
// work itme", "closeticket". A query word that no tool has, and that begins
// no word of the catalog ([Index.prefixTerms]), is read as one of these:
//
//   - words joined: when the word, of six letters or more, is two or three
//     words of the catalog written together that some tool has all of
//     ("closeticket" is close and ticket, "getticket" get and ticket), it
//     stands for them, each at joinedWeight;
//   - a typing error: otherwise, it stands for the words of the catalog
//     that are closest to it, within one edit for a word of five letters
//     or more and two for nine or more (an edit inserts, deletes or
//     replaces a letter, or swaps two adjacent ones), with its first
//     letter, at typoWeight each, when at most maxTypoTerms are that
//     close. A word that splits into words one tool has together is read
//     so before any near word ("searchnodes" is search and nodes, not
//     "searchId" two edits away).
//
// A word that a tool has is never read as another. Both rules read the
// word as typed (lower-cased, ASCII letters only) and compare stems: a
// part of a joined word counts when its stem is a term of the catalog, and
// a typing error is measured from the word's stem and from the word itself.
const (
	minTypoLen     = 5
	minTwoTypoLen  = 9
	maxTypoTerms   = 2
	typoWeight     = 0.5
	joinedWeight   = 1
	minJoinedPart  = 2
	minJoinedLen   = 6
	maxJoinedParts = 3
)

// joinedTerms appends to dst the terms of the catalog that word, as typed
// and lower-cased, is made of, and reports whether it is: the split into
// the fewest parts, and of those the one whose shortest part is longest
// (the first of equals), each part a term of the catalog by its stem, not
// a stop word or a frame word, and some tool having every part.
func (ix *Index) joinedTerms(dst []weightedTerm, word []byte, buf *[]byte) ([]weightedTerm, bool) {
	n := len(word)
	if n < minJoinedLen || !asciiLetters(word) {
		return dst, false
	}
	part := func(w []byte) (int32, bool) {
		if len(w) < minJoinedPart || isStopWord(w) {
			return 0, false
		}
		*buf = append((*buf)[:0], w...)
		s := stem(*buf)
		if isAlwaysFrameTerm(s) {
			return 0, false
		}
		t, ok := ix.terms.lookup(s)
		return t, ok && len(ix.postings[t]) > 0
	}
	var parts, best [maxJoinedParts]int32
	bestShort := 0
	for i := minJoinedPart; i <= n-minJoinedPart; i++ {
		if short := min(i, n-i); short > bestShort {
			var ok bool
			if parts[0], ok = part(word[:i]); !ok {
				continue
			}
			if parts[1], ok = part(word[i:]); ok && ix.together(parts[:2]) {
				best, bestShort = parts, short
			}
		}
	}
	if bestShort > 0 {
		return append(dst, weightedTerm{term: best[0], weight: joinedWeight}, weightedTerm{term: best[1], weight: joinedWeight}), true
	}
	for i := minJoinedPart; i <= n-2*minJoinedPart; i++ {
		var ok bool
		if parts[0], ok = part(word[:i]); !ok {
			continue
		}
		for j := i + minJoinedPart; j <= n-minJoinedPart; j++ {
			if short := min(i, j-i, n-j); short > bestShort {
				if parts[1], ok = part(word[i:j]); !ok {
					continue
				}
				if parts[2], ok = part(word[j:]); ok && ix.together(parts[:3]) {
					best, bestShort = parts, short
				}
			}
		}
	}
	if bestShort == 0 {
		return dst, false
	}
	for _, t := range best {
		dst = append(dst, weightedTerm{term: t, weight: joinedWeight})
	}
	return dst, true
}

// together reports whether some tool has every one of terms, by a merge of
// their postings, which are in tool order.
func (ix *Index) together(terms []int32) bool {
	var at [maxJoinedParts]int
	lists := make([][]ToolTerm, 0, maxJoinedParts)
	for _, t := range terms {
		lists = append(lists, ix.postings[t])
	}
	for {
		var tool int32 = -1
		for i, l := range lists {
			if at[i] >= len(l) {
				return false
			}
			tool = max(tool, l[at[i]].Tool)
		}
		same := true
		for i, l := range lists {
			for at[i] < len(l) && l[at[i]].Tool < tool {
				at[i]++
			}
			if at[i] >= len(l) {
				return false
			}
			if l[at[i]].Tool != tool {
				same = false
			}
		}
		if same {
			return true
		}
	}
}

// typoTerms appends to dst the terms of the catalog that word, as typed and
// lower-cased, with stem term, is a typing error of, and reports whether
// there are any: the sorted terms with its first letter at the fewest edits
// from term or word, within one edit for a word of minTypoLen letters and
// two for minTwoTypoLen, when at most maxTypoTerms are that close.
func (ix *Index) typoTerms(dst []weightedTerm, word, term []byte) ([]weightedTerm, bool) {
	if len(word) < minTypoLen || !asciiLetters(word) || isAlwaysFrameTerm(term) {
		return dst, false
	}
	limit := 1
	if len(word) >= minTwoTypoLen {
		limit = 2
	}
	sorted, _ := ix.sortedTerms()
	start := len(dst)
	best := limit + 1
	termLetters, wordLetters := letterSet(term), letterSet(word)
	shortest, longest := min(len(term), len(word))-limit, max(len(term), len(word))+limit
	for n := max(shortest, 1); n <= min(longest, maxBucketLen); n++ {
		b, _ := lengthBucket(word[0], n)
		for _, i := range ix.byFirstAndLength[b] {
			// An edit changes the set of a word's letters by two letters
			// at most: a term that differs from both in more is further.
			letters := ix.sortedLetters[i]
			near, nearTyped := bits.OnesCount32(letters^termLetters) <= 2*limit, bits.OnesCount32(letters^wordLetters) <= 2*limit
			if !near && !nearTyped {
				continue
			}
			t := sorted[i]
			key := ix.terms.keys[t]
			d := best + 1
			if near {
				d = editDistance(key, term, best)
			}
			if nearTyped && d > 0 && len(word) != len(term) {
				d = min(d, editDistance(key, word, best))
			}
			switch {
			case d > best || d == best && len(dst)-start == maxTypoTerms+1:
				continue
			case d < best:
				best, dst = d, dst[:start]
			}
			dst = append(dst, weightedTerm{term: t, weight: typoWeight})
		}
	}
	// In the order of the sorted terms, the order their scores are summed.
	if c := dst[start:]; len(c) == 2 && strings.Compare(ix.terms.keys[c[0].term], ix.terms.keys[c[1].term]) > 0 {
		c[0], c[1] = c[1], c[0]
	}
	if best > limit || len(dst)-start > maxTypoTerms {
		return dst[:start], false
	}
	return dst, len(dst) > start
}

// editDistance returns the number of edits between a and b (insertions,
// deletions, replacements and swaps of adjacent letters, each once: the
// optimal string alignment distance), or a number above limit when it is
// more than limit.
func editDistance(a string, b []byte, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(b) > 32 || len(a) > 32 {
		return limit + 1
	}
	var rows [3][33]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		lowest := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			lowest = min(lowest, d)
		}
		if lowest > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// letterSet returns the set of the letters a to z in s, a bit each.
func letterSet[S ~string | ~[]byte](s S) uint32 {
	var set uint32
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' {
			set |= 1 << (c - 'a')
		}
	}
	return set
}

// maxBucketLen is the longest length of [lengthBucket]'s own; longer terms
// share its last bucket, and no typing error is looked up among them.
const maxBucketLen = 32

// lengthBucket returns the bucket of the terms that begin with the ASCII
// letter first and have n bytes, and whether first is such a letter.
func lengthBucket(first byte, n int) (int, bool) {
	if first < 'a' || first > 'z' {
		return 0, false
	}
	return int(first-'a')*(maxBucketLen+1) + min(n, maxBucketLen), true
}
