package discovery

// A pagination partner travels with its tool: a model that found a listing
// tool calls its partner for the next page without searching again, so an
// answer returns the partner right after the tool. Partners never widen
// what a catalog permits: one the catalog does not hold (left out by
// policy, or not among the agent's deferred tools) is not returned.

// withPartners returns found with the pagination partner of each entry,
// when the catalog holds it, right after the entry, then that partner's
// partner, and so on: each entry once, at its first place in that order.
// A partner found on its own before its tool keeps its place; one found
// after moves up to follow its tool. found is returned unchanged, without
// allocating, when none of its entries has a partner the catalog holds.
func (c *Catalog) withPartners(found []int) []int {
	k := 0
	for k < len(found) && c.partnerOf(found[k]) < 0 {
		k++
	}
	if k == len(found) {
		return found
	}
	out := make([]int, k, 2*len(found))
	copy(out, found[:k])
	placed := make(map[int]bool, 2*len(found))
	for _, i := range found[:k] {
		placed[i] = true
	}
	for _, i := range found[k:] {
		for ; i >= 0 && !placed[i]; i = c.partnerOf(i) {
			placed[i] = true
			out = append(out, i)
		}
	}
	return out
}

// partnerOf returns the position of entry i's pagination partner in the
// catalog, or -1 when it has none or the catalog does not hold it.
func (c *Catalog) partnerOf(i int) int {
	p := c.entries[i].Partner
	if p == "" {
		return -1
	}
	j, ok := c.byName[p]
	if !ok {
		return -1
	}
	return j
}
