package toolsearch

import (
	"cmp"
	"math"
	"slices"
)

// Groups are numbered so that groups alike in content are near each other.
// A search bounds a query's score in every word of 64 groups (the highest
// score of each term there, summed: see [Index.boundWords]) and skips the
// words whose bound stays below its floor; the bound is tight only when a
// word's groups score alike, that is when they share their words. So the
// first search orders the groups by their rarest shared term (the term in
// the fewest tools among those in two tools or more), then by their second
// rarest, then by their first member: tools that share what is most
// specific in them sit together, the members of a family of tools (copies
// of one tool under other names, a server's tools about one subject) in one
// or two words. The order changes no score and no ranking: equal scores
// keep registration order whatever the groups' numbers.

// noTerm is the key of a tool with no shared term, after every term.
const noTerm = math.MaxUint64

// rarestTerms returns, for every tool, its rarest and second rarest shared
// terms, each as its number of tools and then its number packed in a key
// that orders them (noTerm when there is none).
func rarestTerms(postings [][]ToolTerm, tools int) [][2]uint64 {
	keys := make([][2]uint64, tools)
	for i := range keys {
		keys[i] = [2]uint64{noTerm, noTerm}
	}
	for t, p := range postings {
		if len(p) < 2 {
			continue // shared with no other tool
		}
		k := uint64(len(p))<<32 | uint64(t)
		for i := range p {
			tk := &keys[p[i].Tool]
			switch {
			case k < tk[0]:
				tk[0], tk[1] = k, tk[0]
			case k < tk[1]:
				tk[1] = k
			}
		}
	}
	return keys
}

// orderGroups renumbers the groups of gs in the order of their first
// members' keys, and of their first members for equal keys. Members keep
// registration order within their group.
func orderGroups(gs toolGroups, keys [][2]uint64) toolGroups {
	n := gs.len()
	order := make([]int32, n) // old group numbers in the new order
	for g := range order {
		order[g] = int32(g)
	}
	first := func(g int32) int32 { return gs.members[gs.start[g]] }
	slices.SortFunc(order, func(a, b int32) int {
		fa, fb := first(a), first(b)
		if c := cmp.Compare(keys[fa][0], keys[fb][0]); c != 0 {
			return c
		}
		if c := cmp.Compare(keys[fa][1], keys[fb][1]); c != 0 {
			return c
		}
		return cmp.Compare(fa, fb)
	})
	out := toolGroups{of: make([]int32, len(gs.of)), start: make([]int32, n+1), members: make([]int32, 0, len(gs.members))}
	for g, old := range order {
		for _, tool := range gs.membersOf(old) {
			out.of[tool] = int32(g)
			out.members = append(out.members, tool)
		}
		out.start[g+1] = int32(len(out.members))
	}
	return out
}
