package toolsearch

import "strings"

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

// serverNameWeight is the weight of a query's term that names a server of
// a pool ([toolServers.names]): "based on Wikipedia" asks for the tools of
// the wikipedia server, and raises them above other servers' tools that
// match the request's other words as well.
const serverNameWeight = 3

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

// names reports whether term, with postings p, names a server of a pool:
// it is the server's whole namespace as [Terms] spells it whole
// ("wikipedia" of wikipedia.search, "hubspot" of
// hubspot.hubspot-list-objects, "sciencefact" of scienceFacts.getDiameter),
// the server has two tools or more, and no other tool has the term. A word
// of a longer namespace ("euro" of euro_history) or one that other servers'
// tools say too says what tools do rather than which server they belong to.
func (s *toolServers) names(term string, p []ToolTerm) bool {
	if len(s.sizes) < 2 || len(p) < 2 {
		return false
	}
	server := s.of[p[0].Tool]
	if len(p) != s.sizes[server] || !spellsWhole(s.spaces[server], term) {
		return false
	}
	for i := range p {
		if s.of[p[i].Tool] != server || p[i].Counts.Namespace == 0 {
			return false
		}
	}
	return true
}

// spellsWhole reports whether term is the whole of text as [Terms] gives
// it: its one term, or the whole spelling of its one run of letters and
// digits that case changes split.
func spellsWhole(text, term string) bool {
	var sc scanner
	sc.reset(text)
	var last string
	for sc.next() {
		last = string(sc.term)
	}
	return last == term && sc.run == 0 && sc.start == 0 && sc.pos == len(text)
}
