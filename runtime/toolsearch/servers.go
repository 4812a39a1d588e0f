package toolsearch

import (
	"slices"
	"strings"
)

// toolServers are the servers of a catalog's tools: the namespace of each
// tool's name, what comes before its last dot ("github" of
// "github.create_issue"), a name without a dot being of the catalog's own
// tools. A catalog pooled from many servers names its tools so.
type toolServers struct {
	of     []int32  // the server of each tool
	sizes  []int    // the number of tools of each server
	spaces []string // the namespace of each server
	// counts is scratch space, one count per server, zero between uses.
	counts []int
}

// serverNameWeight is the weight of each of a query's terms that together
// name a server of a pool ([Index.findServerNames]): "based on Wikipedia"
// asks for the tools of the wikipedia server, and raises them above other
// servers' tools that match the request's other words as well.
const serverNameWeight = 3

// maxServerWords is the most words at the start of a tool's name that name
// its server in a catalog without namespaces ("google_maps" of
// google_maps_geocode).
const maxServerWords = 3

// A word of many servers: in more than commonServerShare of a pool's
// servers (and in minCommonServers at least), and in more than
// commonSpreadShare of its tools, a word is common wherever a server that
// dominates the pool leaves it.
const (
	commonServerShare = 0.3
	commonSpreadShare = 0.1
	minCommonServers  = 3
)

// newToolServers numbers the servers of the tools named names.
func newToolServers(names []string) toolServers {
	ids := make(map[string]int32)
	s := toolServers{of: make([]int32, len(names))}
	for i, name := range names {
		ns := ""
		if j := strings.LastIndexByte(name, '.'); j >= 0 {
			ns = name[:j]
		}
		id, ok := ids[ns]
		if !ok {
			id = int32(len(s.sizes))
			ids[ns] = id
			s.sizes = append(s.sizes, 0)
			s.spaces = append(s.spaces, ns)
		}
		s.of[i] = id
		s.sizes[id]++
	}
	s.counts = make([]int, len(s.sizes))
	return s
}

// common reports whether a term with postings p, in [minCommonTools] tools
// or more, is common: it adds to the scores of the tools that a query's
// rarer terms find, and finds tools itself only when those find fewer than
// the limit. Its commonness is judged by server, so that a pooled catalog
// ranks a server's tools as the server alone would:
//
//   - in a catalog of one server, a term in more than a fifth of the tools
//     ([commonShare]) is common;
//   - in a pool, such a term is common only if it is in more than a fifth
//     of the tools of the servers other than the one that has it most: a
//     word that one server uses in most of its tools ("project" of a
//     project tracker) is what that server is about, and finds its tools
//     as it would in a pool where the server is one of many;
//   - and a term of many servers (see [commonServerShare]) is common even
//     where a dominant server leaves it under a fifth of the pool: a verb
//     ("list") that the tracker's tools share with every server's adds to
//     the tools that "projects" finds in "list projects", as it does on the
//     tracker alone, instead of finding the other servers' lists.
func (s *toolServers) common(p []ToolTerm) bool {
	if len(s.sizes) < 2 {
		return isCommon(len(p), len(s.of))
	}
	if float64(len(p)) <= commonSpreadShare*float64(len(s.of)) {
		return false // in neither share: most terms, read no further
	}
	for i := range p {
		s.counts[s.of[p[i].Tool]]++
	}
	// The server that has it most; of those that have it equally often,
	// the one of most tools, then the first in catalog order.
	most := s.of[p[0].Tool]
	for i := range p {
		id := s.of[p[i].Tool]
		c, m := s.counts[id], s.counts[most]
		if c > m || c == m && (s.sizes[id] > s.sizes[most] || s.sizes[id] == s.sizes[most] && id < most) {
			most = id
		}
	}
	others := len(p) - s.counts[most]
	rest := len(s.of) - s.sizes[most]
	servers := 0
	for i := range p {
		if id := s.of[p[i].Tool]; s.counts[id] > 0 {
			servers++
			s.counts[id] = 0
		}
	}
	if servers >= minCommonServers && float64(servers) > commonServerShare*float64(len(s.sizes)) &&
		float64(len(p)) > commonSpreadShare*float64(len(s.of)) {
		return true
	}
	return isCommon(len(p), len(s.of)) && float64(others) > commonShare*float64(rest)
}

// findServerNames finds the runs of terms that name a server of the
// catalog, each listed under its first term. A server's name is
//
//   - the whole namespace of its tools as [Terms] spells it: its one term
//     ("wikipedia" of wikipedia.search, "hubspot" of
//     hubspot.hubspot-list-objects), its words in order ("google", "maps"
//     of google_maps.maps_geocode, "science", "facts" of
//     scienceFacts.getDiameter) or the whole spelling of a run that case
//     changes split ("sciencefacts");
//   - or, for tools whose names have no namespace, the first words of their
//     names, up to [maxServerWords] and not the whole name, as a catalog
//     pooled under names like wikipedia_search or google_maps_geocode
//     (the portable names of namespaced MCP tools) spells its servers;
//
// it names the tools so named when they are two or more, not the whole
// catalog, no other tool has every word of it and, of several words, none
// has a digit. The first words of names that begin with a verb, or of a
// few names among others named otherwise, name no server (see below). A
// word of a longer namespace alone ("euro" of euro_history), or words that other tools have
// too, say what tools do rather than which server they belong to.
func (ix *Index) findServerNames(s *toolServers) map[int32][][]int32 {
	n := len(ix.names)
	var found map[int32][][]int32
	add := func(run []int32) {
		if slices.ContainsFunc(found[run[0]], func(r []int32) bool { return slices.Equal(r, run) }) {
			return
		}
		if found == nil {
			found = make(map[int32][][]int32)
		}
		found[run[0]] = append(found[run[0]], slices.Clone(run))
	}
	var sc scanner
	var run []int32
	bare := -1 // the server of the tools without a namespace
	for id, space := range s.spaces {
		if space == "" {
			bare = id
			continue
		}
		if s.sizes[id] < 2 || s.sizes[id] == n {
			continue
		}
		in := func(tool int32) bool { return s.of[tool] == int32(id) }
		run = ix.appendWords(&sc, run[:0], space, len(space))
		if len(run) > 0 && ix.onlyIn(run, in, s.sizes[id]) {
			add(run)
		}
		if len(run) > 1 {
			sc.reset(space)
			var last []byte
			for sc.next() {
				last = sc.term
			}
			if t, ok := ix.terms.lookup(last); ok && sc.run == 0 && sc.start == 0 && sc.pos == len(space) {
				if run = append(run[:0], t); ix.onlyIn(run, in, s.sizes[id]) {
					add(run)
				}
			}
		}
	}
	if bare < 0 || s.sizes[bare] < 2 {
		return found
	}
	// The tools without a namespace by the first words of their names.
	prefixed := make(map[[maxServerWords]int32][]int32)
	for tool, id := range s.of {
		if id != int32(bare) {
			continue
		}
		run = ix.appendWords(&sc, run[:0], ix.names[tool], maxServerWords+1)
		var key [maxServerWords]int32
		for i := range key {
			key[i] = -1
		}
		for l := 1; l < len(run) && l <= maxServerWords; l++ {
			key[l-1] = run[l-1]
			prefixed[key] = append(prefixed[key], int32(tool))
		}
	}
	// A run that begins with a word of synonymGroups ("get", "search",
	// "create") begins with what the tools do: such names are a server's
	// tools named by their actions (get_issue, search_code). The runs name
	// servers when most of the tools without a namespace are so named: in
	// a catalog where a few tools share a word at the start of their names
	// among others named otherwise ("reminders_list" beside
	// "get_weather"), the word says what the tools do.
	var runs [][]int32
	named := make([]bool, n)
	covered := 0
	for key, tools := range prefixed {
		run = run[:0]
		for _, t := range key {
			if t >= 0 {
				run = append(run, t)
			}
		}
		in := func(tool int32) bool {
			_, ok := slices.BinarySearch(tools, tool)
			return ok
		}
		if len(tools) < 2 || len(tools) == n || synonymWords[ix.terms.keys[run[0]]] || !ix.onlyIn(run, in, len(tools)) {
			continue
		}
		runs = append(runs, slices.Clone(run))
		for _, tool := range tools {
			if !named[tool] {
				named[tool] = true
				covered++
			}
		}
	}
	if 2*covered > s.sizes[bare] {
		// In key order, so that each term lists its runs alike at every
		// build.
		slices.SortFunc(runs, slices.Compare)
		for _, run := range runs {
			add(run)
		}
	}
	return found
}

// appendWords appends to run the terms of text's words, split at case
// changes and not spelled whole, up to max of them; a word that is no term
// of the index, or a word of an unspaced script, ends them.
func (ix *Index) appendWords(sc *scanner, run []int32, text string, max int) []int32 {
	sc.reset(text)
	sc.joins = false
	for len(run) < max && sc.next() {
		t, ok := ix.terms.lookup(sc.term)
		if !ok || sc.paired {
			break
		}
		run = append(run, t)
	}
	return run
}

// onlyIn reports whether no tool but the size tools that in reports, each
// of which has every term of run, has every term of run.
func (ix *Index) onlyIn(run []int32, in func(tool int32) bool, size int) bool {
	rarest := run[0]
	for _, t := range run[1:] {
		if len(ix.postings[t]) < len(ix.postings[rarest]) {
			rarest = t
		}
	}
	switch {
	case len(ix.postings[rarest]) == size:
		return true // its tools are those
	case len(run) == 1 || slices.ContainsFunc(run, func(t int32) bool { return isValueTerm(ix.terms.keys[t]) }):
		// A word with a digit in a run of several is an index or a
		// version (copy2, v2) rather than a word of a server's name; the
		// tools that have it beside a name's other words are many.
		return false
	}
	for _, p := range ix.postings[rarest] {
		if in(p.Tool) {
			continue
		}
		all := true
		for _, t := range run {
			if _, has := slices.BinarySearchFunc(ix.postings[t], p.Tool, func(q ToolTerm, tool int32) int {
				return int(q.Tool - tool)
			}); !has {
				all = false
				break
			}
		}
		if all {
			return false
		}
	}
	return true
}

// weighServerNames gives [serverNameWeight] to the query's terms that name
// a server: a run of the index's server names ([Index.findServerNames])
// among the query's terms in order (seq), words that no tool has breaking
// runs.
func (ix *Index) weighServerNames(st *searchState) {
	for i, t := range st.seq {
		for _, run := range ix.serverNames[t] {
			if i+len(run) > len(st.seq) || !slices.Equal(st.seq[i:i+len(run)], run) {
				continue
			}
			w := max(1, float32(serverNameWeight)/float32(len(run)))
			for _, u := range run {
				for _, terms := range [2][]weightedTerm{st.rare, st.common} {
					for j := range terms {
						if terms[j].term == u {
							terms[j].weight = max(terms[j].weight, w)
						}
					}
				}
			}
		}
	}
}

// synonymWords are the words of [synonymGroups].
var synonymWords = func() map[string]bool {
	words := make(map[string]bool)
	for _, g := range synonymGroups {
		for _, w := range g {
			words[w] = true
		}
	}
	return words
}()
