package toolsearch

// searchState is the scratch space of one search, pooled per index so that a
// search allocates nothing but its results (and the scores of a term on its
// first search).
type searchState struct {
	// scores holds, per group, the sum of the weighted scores of the query
	// terms that the group's members share; found marks the groups that the
	// query's essential finding terms reach ([Index.chooseEssential]), the
	// only ones summed. Both are zero outside a search.
	scores []float32
	found  bitSet
	// bound holds, per word of found, the most that a group in it scores
	// ([Index.boundWords]); zero outside a search.
	bound []float32
	// foundWords lists the words of found that have groups found.
	foundWords []int32
	// alone marks the tools ranked one by one (listed in aloneList): those
	// with a query term that their group does not share, and those the
	// query names (also listed in named, with how in match).
	alone     bitSet
	aloneList []int32
	named     []int32
	match     []nameMatch
	// fold holds the folded form of what the query names are matched
	// against ([appendFolded]).
	fold []byte
	// finders are the query terms that find tools, adders those that add to
	// the tools the finders find; each with its weight.
	finders, adders []weightedTerm
	// seq are the query's terms in order, -1 for a word that no tool has
	// ([Index.weighServerNames]).
	seq []int32
	// essential marks the finders whose groups are found; seeds are the
	// groups scored for the floor ([Index.wordFloor]), best the scratch of
	// choosing among them and order that of choosing the essential finders.
	essential    []bool
	seeds        []seed
	best         []int32
	order        []boundedTerm
	rare, common []weightedTerm // the query's rare and common terms
	all          []weightedTerm // both, when the common terms find tools too ([Index.fill])
	// stands are the terms that the query's words that no tool has
	// stand for ([Index.standsFor]), in query order; typed and part are
	// the scratch of reading such a word as typed.
	stands      []weightedTerm
	typed, part []byte
	heap        []candidate
	scan        scanner
	// langScan reads the request's languages ([requestLangs]).
	langScan scanner
}

// weightedTerm is a query term and its weight, the factor of its scores in
// a tool's score.
type weightedTerm struct {
	term   int32
	weight float32
}

// candidate is a tool competing for a place in the results.
type candidate struct {
	tool  int32
	score float32
	named nameMatch
}

// before reports whether a ranks ahead of b: tools named exactly first,
// then those named up to case and separators, then higher scores, then
// registration order.
func (a candidate) before(b candidate) bool {
	if a.named != b.named {
		return a.named > b.named
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return a.tool < b.tool
}

// state takes a search state from the index's pool; the caller puts it back
// after clearing it.
func (ix *Index) state() *searchState {
	ix.group()
	if st, ok := ix.states.Get().(*searchState); ok {
		return st
	}
	return ix.newState()
}

func (ix *Index) newState() *searchState {
	ix.group()
	return &searchState{
		scores: make([]float32, ix.groups.len()),
		found:  newBitSet(ix.groups.len()),
		bound:  make([]float32, (ix.groups.len()+63)/64),
		alone:  newBitSet(len(ix.names)),
	}
}

// markAlone records that tool is ranked on its own.
func (st *searchState) markAlone(tool int32) {
	if !st.alone.has(tool) {
		st.alone.add(tool)
		st.aloneList = append(st.aloneList, tool)
	}
}

// markNamed records that the query names tool as m says, keeping the
// closest match when it names the tool twice.
func (st *searchState) markNamed(tool int32, m nameMatch) {
	for i, e := range st.named {
		if e == tool {
			st.match[i] = max(st.match[i], m)
			return
		}
	}
	st.named = append(st.named, tool)
	st.match = append(st.match, m)
	st.markAlone(tool)
}

// nameMatch returns how the query names tool.
func (st *searchState) nameMatch(tool int32) nameMatch {
	for i, e := range st.named {
		if e == tool {
			return st.match[i]
		}
	}
	return notNamed
}

// offer puts c among the best limit candidates when it ranks ahead of the
// worst of them, and reports whether it did. The heap keeps the worst kept
// candidate at its root.
func (st *searchState) offer(c candidate, limit int) bool {
	h := st.heap
	if len(h) < limit {
		st.heap = append(h, c)
		siftUp(st.heap, len(st.heap)-1)
		return true
	}
	if !c.before(h[0]) {
		return false
	}
	h[0] = c
	siftDown(h, 0, len(h))
	return true
}

// sortTop orders the kept candidates best first and returns them.
func (st *searchState) sortTop() []candidate {
	h := st.heap
	// Heap sort: repeatedly move the worst to the end, leaving best first.
	for end := len(h) - 1; end > 0; end-- {
		h[0], h[end] = h[end], h[0]
		siftDown(h, 0, end)
	}
	return h
}

// The heap is ordered so that every parent ranks after its children.
func siftUp(h []candidate, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h[parent].before(h[i]) {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func siftDown(h []candidate, i, n int) {
	for {
		worst := i
		if l := 2*i + 1; l < n && h[worst].before(h[l]) {
			worst = l
		}
		if r := 2*i + 2; r < n && h[worst].before(h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// clear resets the scratch of the tools ranked alone and forgets the
// candidates; the group scores and found groups are reset as they are
// ranked.
func (st *searchState) clear() {
	for _, tool := range st.aloneList {
		st.alone[tool>>6] = 0
	}
	st.aloneList = st.aloneList[:0]
	st.named, st.match = st.named[:0], st.match[:0]
	st.heap = st.heap[:0]
}
