package toolsearch

// searchState is the scratch space of one search, pooled per index so that a
// search allocates nothing but its results (and the scores of a term on its
// first search).
type searchState struct {
	scores     []float32  // per tool
	fields     []FieldSet // per tool; non-zero once the tool is touched
	touched    []int32    // tools with non-zero fields, in first-touch order
	queryTerms []int32    // the query's terms that find tools
	weakTerms  []int32    // its common terms and request words
	heap       []candidate
	scan       scanner
}

// candidate is a touched tool competing for a place in the results.
type candidate struct {
	tool  int32
	score float32
	exact bool
}

// before reports whether a ranks ahead of b: exact names first, then higher
// scores, then registration order.
func (a candidate) before(b candidate) bool {
	if a.exact != b.exact {
		return a.exact
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return a.tool < b.tool
}

// state takes a search state from the index's pool; the caller puts it back
// after clearing it.
func (ix *Index) state() *searchState {
	if st, ok := ix.states.Get().(*searchState); ok {
		return st
	}
	return ix.newState()
}

func (ix *Index) newState() *searchState {
	return &searchState{
		scores: make([]float32, len(ix.names)),
		fields: make([]FieldSet, len(ix.names)),
	}
}

// touch records that tool matched in fields.
func (st *searchState) touch(tool int32, fields FieldSet) {
	if st.fields[tool] == 0 {
		st.touched = append(st.touched, tool)
	}
	st.fields[tool] |= fields
}

// selectTop returns the best limit touched tools, best first. The heap keeps
// the worst kept candidate at its root.
func (st *searchState) selectTop(limit int) []candidate {
	h := st.heap[:0]
	for _, tool := range st.touched {
		c := candidate{tool: tool, score: st.scores[tool], exact: st.fields[tool]&exactBit != 0}
		if len(h) < limit {
			h = append(h, c)
			siftUp(h, len(h)-1)
			continue
		}
		if c.before(h[0]) {
			h[0] = c
			siftDown(h, 0, len(h))
		}
	}
	// Heap sort: repeatedly move the worst to the end, leaving best first.
	for end := len(h) - 1; end > 0; end-- {
		h[0], h[end] = h[end], h[0]
		siftDown(h, 0, end)
	}
	st.heap = h
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

// clear resets the per-tool scratch of the touched tools.
func (st *searchState) clear() {
	for _, tool := range st.touched {
		st.scores[tool] = 0
		st.fields[tool] = 0
	}
	st.touched = st.touched[:0]
}
