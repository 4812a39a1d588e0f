package toolsearch

import (
	"slices"
	"strings"
	"sync"
)

// referenceServerWeights gives the weight of each of the query's terms (seq,
// in order, -1 for a word that no tool has) that names a server of ix, by
// trying every run of the query's terms against every tool: a run names a
// server when it is the whole namespace of two tools or more (its words, or
// the whole spelling of a namespace that case changes split), or the first
// words (up to three, not all) of the names of two tools or more without a
// namespace, the first not a word of synonymGroups, in a catalog where
// most tools without a namespace are so named; in both cases not the whole
// catalog, no other tool has every term of the run, and a run of several
// terms has no term with a digit. Each term of a run of k terms weighs the larger of 1
// and serverNameWeight/k.
func referenceServerWeights(ix *Index, seq []int32) map[int32]float32 {
	names := referenceServerNamesOf(ix)
	weights := make(map[int32]float32)
	for i := range seq {
		for j := i + 1; j <= len(seq) && seq[j-1] >= 0; j++ {
			words := make([]string, 0, j-i)
			for _, t := range seq[i:j] {
				words = append(words, ix.terms.keys[t])
			}
			if names[strings.Join(words, " ")] {
				for _, t := range seq[i:j] {
					weights[t] = max(weights[t], 1, serverNameWeight/float32(j-i))
				}
			}
		}
	}
	return weights
}

var referenceServerNamesCache sync.Map // *Index to map[string]bool

// referenceServerNamesOf returns the runs of terms that name a server of
// ix, their terms joined by spaces.
func referenceServerNamesOf(ix *Index) map[string]bool {
	if names, ok := referenceServerNamesCache.Load(ix); ok {
		return names.(map[string]bool)
	}
	rs := referenceServersOf(ix)
	n := len(ix.names)
	// The runs that name servers, by their terms joined with spaces.
	names := make(map[string]bool)
	onlyIn := func(run []int32, tools map[int32]bool) bool {
		if len(tools) < 2 || len(tools) == n {
			return false
		}
		if len(run) > 1 && slices.ContainsFunc(run, func(t int32) bool { return strings.ContainsAny(ix.terms.keys[t], "0123456789") }) {
			return false
		}
		has := make(map[int32]int) // the number of the run's terms each tool has
		for _, t := range run {
			for _, p := range ix.postings[t] {
				has[p.Tool]++
			}
		}
		for tool, c := range has {
			if c == len(run) && !tools[tool] {
				return false
			}
		}
		return true
	}
	toolsOf := make(map[string]map[int32]bool)
	for tool, s := range rs.server {
		if toolsOf[s] == nil {
			toolsOf[s] = make(map[int32]bool)
		}
		toolsOf[s][int32(tool)] = true
	}
	for _, ns := range rs.order {
		if ns == "" {
			continue
		}
		tools := toolsOf[ns]
		words, whole := referenceWords(ns)
		for _, w := range [][]string{words, whole} {
			if run, ok := referenceRun(ix, w); ok && len(run) == len(w) && len(w) > 0 && onlyIn(run, tools) {
				names[strings.Join(w, " ")] = true
			}
		}
	}
	prefixes := make(map[string]map[int32]bool)
	bare := 0
	for tool, s := range rs.server {
		if s != "" {
			continue
		}
		bare++
		words, _ := referenceWords(ix.names[tool])
		run, _ := referenceRun(ix, words)
		for k := 1; k < len(run) && k <= 3; k++ {
			key := strings.Join(words[:k], " ")
			if prefixes[key] == nil {
				prefixes[key] = make(map[int32]bool)
			}
			prefixes[key][int32(tool)] = true
		}
	}
	covered := make(map[int32]bool)
	var prefixNames []string
	for key, tools := range prefixes {
		run, _ := referenceRun(ix, strings.Fields(key))
		verb := slices.ContainsFunc(synonymGroups[:], func(g []string) bool { return slices.Contains(g, strings.Fields(key)[0]) })
		if !verb && onlyIn(run, tools) {
			prefixNames = append(prefixNames, key)
			for tool := range tools {
				covered[tool] = true
			}
		}
	}
	if 2*len(covered) > bare {
		for _, key := range prefixNames {
			names[key] = true
		}
	}
	referenceServerNamesCache.Store(ix, names)
	return names
}

// referenceWords returns the terms of text's words, split at separators and
// case changes, and the whole spelling of text when it is one run of
// letters and digits that case changes split.
func referenceWords(text string) (words, whole []string) {
	pieces := strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) || isUnspaced(r) })
	for _, piece := range pieces {
		terms := Terms(piece)
		if len(terms) > 1 {
			if len(pieces) == 1 && len(text) == len(piece) {
				whole = terms[len(terms)-1:]
			}
			terms = terms[:len(terms)-1]
		}
		words = append(words, terms...)
	}
	return words, whole
}

// referenceRun returns the index's terms of words up to the first that is
// not one, and whether all are.
func referenceRun(ix *Index, words []string) ([]int32, bool) {
	var run []int32
	for _, w := range words {
		t, ok := ix.terms.lookup([]byte(w))
		if !ok {
			return run, false
		}
		run = append(run, t)
	}
	return run, true
}
