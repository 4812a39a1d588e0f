package toolsearch

import "strings"

// toolServers are the servers of a catalog's tools: the namespace of each
// tool's name, what comes before its last dot ("github" of
// "github.create_issue"), a name without a dot being of the catalog's own
// tools. A catalog pooled from many servers names its tools so.
type toolServers struct {
	of    []int32 // the server of each tool
	sizes []int   // the number of tools of each server
	// counts is scratch space, one count per server, zero between uses.
	counts []int
}

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
