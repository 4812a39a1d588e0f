package expr

// This file holds the one did-you-mean of the design language: an unknown
// name is matched against the names that exist in another form (qualified
// "toolset.tool", another case or separator) or misspelled.

import "strings"

// meantName returns the candidate that name most likely refers to, or ""
// when none is close. A qualified name ("records.search") is judged by its
// last part; a candidate equal to name once case and the separators '_'
// and '-' are ignored wins; otherwise the unique candidate at the smallest
// edit distance (insertions, deletions, substitutions and transpositions of
// adjacent characters, on those folded forms) wins when the distance is at
// most maxTypos(name). Candidates are compared in the order given.
func meantName(name string, candidates []string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		local := name[i+1:]
		for _, c := range candidates {
			if c == local {
				return c
			}
		}
		name = local
	}
	key := looseKey(name)
	best, bestDist, ties := "", maxTypos(key)+1, 0
	for _, c := range candidates {
		d := editDistance(key, looseKey(c))
		switch {
		case d == 0:
			return c
		case d < bestDist:
			best, bestDist, ties = c, d, 1
		case d == bestDist:
			ties++
		}
	}
	if ties != 1 {
		return ""
	}
	return best
}

// maxTypos is the largest edit distance at which a name of the folded form
// key still suggests another: one typo per three characters, at least one
// and at most two, so that short names do not suggest unrelated ones.
func maxTypos(key string) int {
	return min(max(len(key)/3, 1), 2)
}

// looseKey folds case and drops '_' and '-' so that "Search", "SEARCH" and
// "find_records" ~ "FindRecords" compare equal.
func looseKey(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s))
}

// editDistance returns the optimal string alignment distance between a and
// b, in bytes: the fewest insertions, deletions, substitutions and
// transpositions of adjacent bytes that turn a into b, no substring edited
// twice.
func editDistance(a, b string) int {
	// Three rows of the dynamic programming table: two back, one back and
	// the current one.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
