package toolsearch

import (
	"cmp"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Tools alike but for the numbers in their names score alike. A catalog
// repeated under numbered prefixes ("copy1.", "copy2.", "v2.") holds the
// same tool under names that differ in value terms only (terms with a digit,
// which count in no length): the same terms with the same counts in every
// field, names included, and the same field lengths, and so the same score
// for every term but those numbers. On its first search an index puts such
// tools in one group (a pass over all the counts, as building makes), and it
// scores a group once per term: a term that every member has with the same
// score and fields is the group's, scored for the group; any other term (a
// number of some members' names only, such as "copy7") is scored for each
// tool that has it, and such a tool is then ranked on its own, looked up
// term by term. Search accumulates the scores of groups and expands a group
// to its members, in registration order, only while they can still enter
// the results.
//
// A word of a name, namespace included, is part of what a group shares:
// tools whose names differ in a word ("github.get_issue" beside
// "gitlab.get_issue" or "github.fetch_issue") are in groups of their own.
// Requests hold such words ("weather", "search", "get"): were they the
// words of some members only, a catalog pooled from many servers would rank
// thousands of tools alone for a request, each looked up term by term. Groups
// of one tool cost little more than shared ones, the copies of a tool being
// numbered together ([orderGroups]) and bounded word by word.
//
// Grouping never changes a score. Members of a group have equal field
// lengths (value terms left out), checked exactly, and so equal scales,
// the weight of a name word in the name share included; whether a term is a
// group's is decided by comparing its score and fields in every member when
// the term is first scored. The hash that proposes groups (of field lengths
// and of the terms with their counts, numbers found only in names left out)
// thus only decides how much is shared, never what a tool scores. A catalog
// without such tools has one tool per group.

// toolGroups assigns every tool of an index to its group. Groups are
// numbered in the order of their first member.
type toolGroups struct {
	of      []int32 // the group of each tool
	start   []int32 // the members of group g are members[start[g]:start[g+1]]
	members []int32 // in registration order within a group
}

// len returns the number of groups.
func (gs *toolGroups) len() int { return max(len(gs.start)-1, 0) }

// size returns the number of members of group g.
func (gs *toolGroups) size(g int32) int32 { return gs.start[g+1] - gs.start[g] }

// membersOf returns the members of group g in registration order.
func (gs *toolGroups) membersOf(g int32) []int32 {
	return gs.members[gs.start[g]:gs.start[g+1]]
}

// groupKeys accumulates, for every tool, a hash of its terms with their
// counts, value terms found only in its names left out: the sum over those
// terms of a random odd number per term times the term's packed counts,
// which does not depend on the order in which terms are added and costs one
// multiplication.
type groupKeys struct {
	seed uint64
	sums []uint64
}

func newGroupKeys(n int) groupKeys {
	return groupKeys{seed: rand.Uint64(), sums: make([]uint64, n)}
}

// termHash returns the random factor of term t.
func (k *groupKeys) termHash(t int) uint64 { return mix(uint64(t)^k.seed) | 1 }

// add adds a term with hash h (its [groupKeys.termHash]) and counts c to the
// key of tool, unless value says that the term is a value term
// ([isValueTerm]) and c counts it in the tool's names only.
func (k *groupKeys) add(tool int32, h uint64, c *FieldCounts, value bool) {
	if value && c.Title|c.Description|c.ParamName|c.ParamDescription|c.Extra == 0 {
		return // a number of a name: decided per term when scored
	}
	packed := uint64(uint32(c.Name)) ^ uint64(uint32(c.Title))<<9 ^ uint64(uint32(c.Description))<<18 ^
		uint64(uint32(c.ParamName))<<27 ^ uint64(uint32(c.ParamDescription))<<36 ^ uint64(uint32(c.Extra))<<45 ^
		uint64(uint32(c.Namespace))<<54
	k.sums[tool] += h * (packed<<1 | 1)
}

// mix is a 64-bit finalizer that spreads every input bit over the output.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// groupTools groups the tools whose keys and field lengths are equal. A tool
// whose terms are all numbers of its names stays alone: nothing but those
// would be shared.
func groupTools(keys groupKeys, lengths [][numFields]int64) toolGroups {
	n := len(lengths)
	gs := toolGroups{of: make([]int32, n)}
	size := 16
	for size < 2*n {
		size *= 2
	}
	mask := uint64(size - 1)
	slots := make([]int32, size) // group+1 of a key; 0 when empty
	var first []int32            // the first member of each group
	for i := range n {
		g := int32(len(first))
		if key := keys.sums[i]; key != 0 {
			h := mix(key ^ mix(lengthsHash(&lengths[i])^keys.seed))
			for s := h & mask; ; s = (s + 1) & mask {
				slot := slots[s]
				if slot == 0 {
					slots[s] = g + 1
					break
				}
				if f := first[slot-1]; keys.sums[f] == key && lengths[f] == lengths[i] {
					g = slot - 1
					break
				}
			}
		}
		if g == int32(len(first)) {
			first = append(first, int32(i))
		}
		gs.of[i] = g
	}
	groups := len(first)
	gs.start = make([]int32, groups+1)
	for _, g := range gs.of {
		gs.start[g+1]++
	}
	for g := range groups {
		gs.start[g+1] += gs.start[g]
	}
	gs.members = make([]int32, n)
	next := make([]int32, groups)
	copy(next, gs.start[:groups])
	for i, g := range gs.of {
		gs.members[next[g]] = int32(i)
		next[g]++
	}
	return gs
}

func lengthsHash(l *[numFields]int64) uint64 {
	var h uint64
	for _, v := range l {
		h = (h ^ uint64(v)) * 0x9e3779b97f4a7c15
	}
	return h
}

// scoredTerm is a term's postings with their scores, in two parts: the
// groups whose every member has the term with the same counts, and the other
// tools that have it. Both are in increasing order, as parallel slices so
// that accumulating reads them sequentially.
type scoredTerm struct {
	groups  []int32
	gScores []float32
	gFields []FieldSet
	tools   []int32
	tScores []float32
	tFields []FieldSet
	// words are the groups as the non-zero words of a bit set, and
	// wordMax the highest score of the groups of each word.
	words   []groupWord
	wordMax []float32
	// bounds are what pruning knows of the groups' scores.
	bounds termBounds
}

// lookup returns the score and fields of the term in tool, of group g of an
// index of n groups, and whether tool has the term.
func (st *scoredTerm) lookup(g, tool int32, n int) (float32, FieldSet, bool) {
	if i, ok := st.findGroup(g, n); ok {
		return st.gScores[i], st.gFields[i], true
	}
	if i, ok := searchInt32(st.tools, tool); ok {
		return st.tScores[i], st.tFields[i], true
	}
	return 0, 0, false
}

// searchInt32 finds x in the increasing s.
func searchInt32(s []int32, x int32) (int, bool) {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(s) && s[lo] == x
}

// groupScratch is the scratch of scoring a term: for each group, the
// position+1 of its first posting and how many of its members have the term
// with the score and fields of that first one (-1 once one differs), zero
// between uses; and room for the term's postings before they are sorted
// into groups and tools.
type groupScratch struct {
	first, alike []int32
	postings     []posting
}

// posting is a term's score in one tool, and the fields it matched there.
type posting struct {
	tool   int32
	score  float32
	fields FieldSet
}

// termPostings returns the score and fields of term t in every tool that
// has it, and in every tool that has one of its synonyms instead
// ([Index.withSynonyms]), with the scores of its words when it is a topic
// or a topic read at large ([Index.withTopic]), in tool order, in buf when
// it has room.
func (ix *Index) termPostings(t int32, buf []posting) []posting {
	topic, broad := ix.narrow[t]
	if !broad {
		topic = t
	}
	counts := ix.postings[topic]
	p := slices.Grow(buf[:0], len(counts))[:len(counts)]
	termIDF := ix.idf[topic]
	for i := range counts {
		c := &counts[i]
		p[i] = posting{tool: c.Tool, score: termScore(termIDF, &c.Counts, &ix.scales[c.Tool]), fields: c.Counts.fields()}
	}
	if s := ix.synonyms[topic]; len(s) > 0 {
		p = ix.withSynonyms(p, s)
	}
	if w := ix.topics[t]; len(w) > 0 {
		p = ix.withTopic(p, w, broad)
	}
	return p
}

// scoreTerm scores term t in its tools ([Index.termPostings]) and sorts the
// scores into its groups' and tools'. A term is a group's when every member
// has it with the same score and fields, which members alike have for a
// word outside their names, for a word of every member's name (the name
// share included: members have names of the same length) and for a synonym
// they all have.
func (ix *Index) scoreTerm(t int32) *scoredTerm {
	ix.group()
	scratch := ix.scratch()
	defer ix.scratchPool.Put(scratch)
	p := ix.termPostings(t, scratch.postings)
	scratch.postings = p[:0]
	gs := &ix.groups
	// For every group of several members: do all have the term alike?
	for i := range p {
		g := gs.of[p[i].tool]
		if gs.size(g) == 1 {
			continue
		}
		switch f := scratch.first[g]; {
		case f == 0:
			scratch.first[g], scratch.alike[g] = int32(i)+1, 1
		case scratch.alike[g] >= 0 && p[f-1].score == p[i].score && p[f-1].fields == p[i].fields:
			scratch.alike[g]++
		default:
			scratch.alike[g] = -1
		}
	}
	// shared reports whether posting i is its group's (1), its tool's
	// alone (-1), or repeats the group's (0).
	shared := func(i int, g int32) int {
		switch {
		case gs.size(g) == 1:
			return 1
		case scratch.alike[g] != gs.size(g):
			return -1
		case scratch.first[g] == int32(i)+1:
			return 1
		}
		return 0
	}
	var ng, nt int
	for i := range p {
		switch shared(i, gs.of[p[i].tool]) {
		case 1:
			ng++
		case -1:
			nt++
		}
	}
	ids, scores, fields := make([]int32, ng+nt), make([]float32, ng+nt), make([]FieldSet, ng+nt)
	st := &scoredTerm{
		groups: ids[:0:ng], gScores: scores[:0:ng], gFields: fields[:0:ng],
		tools: ids[ng:ng], tScores: scores[ng:ng], tFields: fields[ng:ng],
	}
	for i := range p {
		g := gs.of[p[i].tool]
		switch shared(i, g) {
		case 1:
			st.groups = append(st.groups, g)
			st.gScores = append(st.gScores, p[i].score)
			st.gFields = append(st.gFields, p[i].fields)
		case -1:
			st.tools = append(st.tools, p[i].tool)
			st.tScores = append(st.tScores, p[i].score)
			st.tFields = append(st.tFields, p[i].fields)
		}
	}
	for i := range p {
		g := gs.of[p[i].tool]
		scratch.first[g], scratch.alike[g] = 0, 0
	}
	sortGroups(st.groups, st.gScores, st.gFields)
	st.words, st.wordMax = groupWords(st.groups, st.gScores)
	st.bounds = boundScores(st.gScores[:len(st.groups)])
	return st
}

// sortGroups sorts a term's groups, in tool order until then, by group
// number, their scores and fields with them: the groups are numbered by
// content ([orderGroups]), not in the order of their first members.
func sortGroups(groups []int32, scores []float32, fields []FieldSet) {
	if slices.IsSorted(groups) {
		return
	}
	type entry struct {
		group  int32
		score  float32
		fields FieldSet
	}
	entries := make([]entry, len(groups))
	for i, g := range groups {
		entries[i] = entry{g, scores[i], fields[i]}
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.group, b.group) })
	for i, e := range entries {
		groups[i], scores[i], fields[i] = e.group, e.score, e.fields
	}
}

// groupWord is a non-zero word of a term's groups as a bit set: the bits of
// the groups 64*index to 64*index+63 that have the term, and the position
// among the term's groups of the first of them.
type groupWord struct {
	index, first int32
	mask         uint64
}

// findGroup returns the position of group g among the term's groups and
// whether the term has it, n being the number of groups of the index. It
// starts from where g's word would be if the term's groups were spread
// evenly.
func (st *scoredTerm) findGroup(g int32, n int) (int, bool) {
	j, ok := st.findWord(g>>6, n)
	if !ok {
		return 0, false
	}
	word := &st.words[j]
	bit := uint64(1) << (uint32(g) & 63)
	return int(word.first) + bits.OnesCount64(word.mask&(bit-1)), word.mask&bit != 0
}

// findWord returns the position of word w among the term's words and
// whether the term has groups in it, n being the number of groups of the
// index. It starts from where w would be if the term's groups were spread
// evenly.
func (st *scoredTerm) findWord(w int32, n int) (int, bool) {
	words := st.words
	if len(words) == 0 {
		return 0, false
	}
	j := min(int(int64(w)*int64(len(words))/int64(n>>6+1)), len(words)-1)
	for steps := 0; words[j].index != w; steps++ {
		switch {
		case steps == 4:
			if j = searchWord(words, w); j == len(words) || words[j].index != w {
				return 0, false
			}
		case words[j].index < w && j+1 < len(words) && words[j+1].index <= w:
			j++
		case words[j].index > w && j > 0 && words[j-1].index >= w:
			j--
		default:
			return 0, false
		}
	}
	return j, true
}

// searchWord returns the position of the first word of index w or more.
func searchWord(words []groupWord, w int32) int {
	lo, hi := 0, len(words)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if words[m].index < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// groupWords returns the increasing groups as the non-zero words of a bit
// set, and the highest of the scores of the groups of each word.
func groupWords(groups []int32, scores []float32) ([]groupWord, []float32) {
	n := 0
	for i, g := range groups {
		if i == 0 || g>>6 != groups[i-1]>>6 {
			n++
		}
	}
	words, maxes := make([]groupWord, 0, n), make([]float32, 0, n)
	for i, g := range groups {
		if i == 0 || g>>6 != groups[i-1]>>6 {
			words = append(words, groupWord{index: g >> 6, first: int32(i)})
			maxes = append(maxes, scores[i])
		}
		last := len(words) - 1
		words[last].mask |= 1 << (uint32(g) & 63)
		maxes[last] = max(maxes[last], scores[i])
	}
	return words, maxes
}

// scratch takes a group scratch from the index's pool.
func (ix *Index) scratch() *groupScratch {
	if s, ok := ix.scratchPool.Get().(*groupScratch); ok {
		return s
	}
	n := ix.groups.len()
	return &groupScratch{first: make([]int32, n), alike: make([]int32, n)}
}

// bitSet is a set of small non-negative integers, one bit each.
type bitSet []uint64

func newBitSet(n int) bitSet { return make(bitSet, (n+63)/64) }

func (b bitSet) has(i int32) bool { return b[i>>6]&(1<<(uint32(i)&63)) != 0 }

func (b bitSet) add(i int32) { b[i>>6] |= 1 << (uint32(i) & 63) }

// bit returns 1 when i is in the set, 0 otherwise.
func (b bitSet) bit(i int32) uint32 { return uint32(b[i>>6]>>(uint32(i)&63)) & 1 }
