package toolsearch

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// reference is the model of a search that referenceSearch runs: it derives
// from an index's counts alone, tool by tool, what the index keeps in its
// own forms (groups, scored terms, synonym lists). The BM25F score of one
// term's counts in one tool, with the tool's name share, is [termScore] of
// the term's weight and the tool's scales; everything around it is the
// reference's own: field lengths without value terms, the tools' scales
// (the name share split over the name's words, its namespace's included),
// the half weight of a term with a digit, synonyms from [synonymGroups] and
// the categories of [categoryInstances], the
// terms that a word no tool has stands for (a scan of every term, not the
// index's sorted list), the sum and the sort.
type reference struct {
	ix     *Index
	idf    []float32    // per term, times its weight
	scales []toolScales // per tool, from lengths without value terms
	// folded are the entries of ix.named by the folded form of their
	// name, by strings.Map.
	folded map[string][]int32
	// noFill leaves out the tools that the common words find when the
	// rarer ones find fewer than the limit ([Index.fill]): the ranking of
	// the rarer words alone.
	noFill bool
}

func newReference(ix *Index) *reference {
	n := len(ix.names)
	r := &reference{ix: ix, idf: make([]float32, len(ix.postings))}
	lengths := make([][numFields]int64, n)
	for t, p := range ix.postings {
		weight := 1.0
		if strings.ContainsAny(ix.terms.keys[t], "0123456789") {
			weight = valueTermWeight // and not in the lengths of fields
		} else {
			for _, tt := range p {
				c := tt.Counts
				for f, n := range [numFields]int32{
					FieldName: c.Name, FieldTitle: c.Title, FieldDescription: c.Description, FieldParamName: c.ParamName,
					FieldParamDescription: c.ParamDescription, FieldExtra: c.Extra, FieldNamespace: c.Namespace,
				} {
					lengths[tt.Tool][f] += int64(n)
				}
			}
		}
		r.idf[t] = float32(idf(len(p), n) * weight)
	}
	r.scales = referenceScales(lengths)
	r.folded = make(map[string][]int32)
	for id, name := range ix.byName.keys {
		key := referenceFold(name)
		r.folded[key] = append(r.folded[key], int32(id))
	}
	return r
}

// referenceSpelling is s lower-cased, each run of _, - and white space
// made one underscore: two strings have one exactly when [sameSpelling]
// holds.
func referenceSpelling(s string) string {
	return spellingSeparators.ReplaceAllString(strings.Map(unicode.ToLower, s), "_")
}

var spellingSeparators = regexp.MustCompile(`[-_ \t\n\r]+`)

// referenceFold is [appendFolded] by strings.Map.
func referenceFold(s string) string {
	return strings.Map(func(r rune) rune {
		if isWordRune(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// namedFolded returns the tools that the whole query names up to case and
// separators, and how: [namedSpelled] up to case and the separators _, -
// and space, [namedFolded] otherwise.
func (r *reference) namedFolded(query string) map[int32]nameMatch {
	ix := r.ix
	out := make(map[int32]nameMatch)
	query = strings.TrimSpace(query)
	key := referenceFold(query)
	if key == "" {
		return out
	}
	for _, id := range r.folded[key] {
		m := namedFolded
		if referenceSpelling(ix.byName.keys[id]) == referenceSpelling(query) {
			m = namedSpelled
		}
		tool := ix.named[id].tool
		out[tool] = max(out[tool], m)
	}
	return out
}

// referenceScales is [fieldScales] written out field by field: each field's
// weight over its length normalized by the average (a description's at most
// [maxDescriptionLength] times it), and the name share over
// the words of the whole name, namespace included.
func referenceScales(lengths [][numFields]int64) []toolScales {
	var sum [numFields]int64
	for _, l := range lengths {
		for f, n := range l {
			sum[f] += n
		}
	}
	scales := make([]toolScales, len(lengths))
	for i, l := range lengths {
		for f := range Field(numFields) {
			norm := 1.0
			if sum[f] > 0 {
				avg := float64(sum[f]) / float64(len(lengths))
				x := float64(l[f]) / avg
				if f == FieldDescription && x > maxDescriptionLength {
					x = maxDescriptionLength // a long description weighs as one of that length
				}
				norm = 1 - fieldB[f] + fieldB[f]*x
			}
			scales[i].field[f] = float32(fieldWeight[f] / norm)
		}
		if words := l[FieldName] + l[FieldNamespace]; words > 0 {
			scales[i].nameWord = float32(nameShareWeight / float64(words))
		}
	}
	return scales
}

// termScores returns the score and fields of query term t in every tool
// where it has one: its own counts' score, or else [synonymWeight] times the
// best score of a synonym the tool has (of equal ones, the first synonym's
// in its group), in that synonym's fields. The category that t is an
// instance of is a synonym after those of its group.
func (r *reference) termScores(t int32, broad bool) []posting {
	ix := r.ix
	var out []posting
	for _, p := range ix.postings[t] {
		out = append(out, posting{tool: p.Tool, score: termScore(r.idf[t], &p.Counts, &r.scales[p.Tool]), fields: p.Counts.fields()})
	}
	var words []string // t's synonyms, in order
	for _, g := range synonymGroups {
		if slices.Contains(g, ix.terms.keys[t]) {
			words = append(words, g...)
		}
	}
	for _, c := range categoryInstances {
		if slices.Contains(c.instances, ix.terms.keys[t]) {
			words = append(words, c.category)
		}
	}
	bySynonym := make(map[int32]posting)
	for _, word := range words {
		s, ok := ix.terms.lookupString(word)
		if !ok || s == t {
			continue
		}
		for _, p := range ix.postings[s] {
			if ownsTerm(ix.postings[t], p.Tool) {
				continue // the tool has the term itself
			}
			score := synonymWeight * termScore(r.idf[s], &p.Counts, &r.scales[p.Tool])
			if prev, ok := bySynonym[p.Tool]; ok && prev.score >= score {
				continue // an earlier synonym scores as well
			}
			bySynonym[p.Tool] = posting{tool: p.Tool, score: score, fields: p.Counts.fields()}
		}
	}
	for _, p := range bySynonym {
		out = append(out, p)
	}
	return r.withTopic(t, out, broad)
}

// withTopic adds to the postings out of term t, when t is a topic of
// topicWords, [topicWeight] times the best score in each tool of the words
// of the topic (of equal ones, the first word's in the table), with its
// fields: as a posting of its own in a tool without t, and when broad (the
// query finds tools with t alone) also to the posting of a tool with t.
func (r *reference) withTopic(t int32, out []posting, broad bool) []posting {
	ix := r.ix
	var words []string
	for _, tw := range topicWords {
		if referenceTerms(tw.topic)[0] == ix.terms.keys[t] {
			for _, w := range tw.words {
				words = append(words, referenceTerms(w)...)
			}
		}
	}
	best := make(map[int32]posting)
	for _, word := range words {
		s, ok := ix.terms.lookupString(word)
		if !ok {
			continue
		}
		for _, p := range ix.postings[s] {
			score := termScore(r.idf[s], &p.Counts, &r.scales[p.Tool])
			if prev, ok := best[p.Tool]; ok && prev.score >= score {
				continue
			}
			best[p.Tool] = posting{tool: p.Tool, score: score, fields: p.Counts.fields()}
		}
	}
	for i := range out {
		if b, ok := best[out[i].tool]; ok && broad {
			out[i].score = out[i].score + topicWeight*b.score
			out[i].fields |= b.fields
		}
		delete(best, out[i].tool)
	}
	for _, b := range best {
		out = append(out, posting{tool: b.tool, score: topicWeight * b.score, fields: b.fields})
	}
	return out
}

// ownsTerm reports whether tool is in the postings of a term.
func ownsTerm(postings []ToolTerm, tool int32) bool {
	_, ok := slices.BinarySearchFunc(postings, tool, func(p ToolTerm, tool int32) int { return cmp.Compare(p.Tool, tool) })
	return ok
}

// referenceSearch is [Index.AppendSearch] by scoring every query term in
// every tool that has it or a synonym, tool by tool, and sorting every tool
// found: the search must return exactly its results, scores to the bit,
// however it reaches them (groups of tools alike, pruning).
func referenceSearch(ix *Index, query string, limit int) []Result {
	return newReference(ix).search(query, limit)
}

func (r *reference) search(query string, limit int) []Result {
	ix := r.ix
	if limit <= 0 {
		limit = DefaultLimit
	}
	st := ix.newState()
	ix.matchNames(st, query)
	named := make(map[int32]nameMatch)
	for i, tool := range st.named {
		if m := st.match[i]; m == namedExactly || m == namedWord {
			named[tool] = m
		}
	}
	for tool, m := range r.namedFolded(query) {
		named[tool] = max(named[tool], m)
	}
	st.scan.reset(query)
	var rare, common []int32
	weight := make(map[int32]float32)
	add := func(t int32, w float32) {
		if slices.Contains(rare, t) || slices.Contains(common, t) {
			return
		}
		weight[t] = w
		switch {
		case referenceCommon(ix, t):
			common = append(common, t)
		default:
			rare = append(rare, t)
		}
	}
	var stands [][]weightedTerm // the terms each word that no tool has stands for
	langs := referenceRequestLangs(query)
	var seq []int32 // the query's terms in order, -1 for a word no tool has
	for st.scan.next() {
		if referenceFrameWordIn(string(st.scan.term), langs) {
			continue
		}
		t, ok := ix.terms.lookup(st.scan.term)
		if !ok {
			seq = append(seq, -1)
			typed := strings.ToLower(st.scan.text[st.scan.start:st.scan.pos])
			stands = append(stands, r.wordStandsFor(string(st.scan.term), typed))
			continue
		}
		seq = append(seq, t)
		add(t, 1)
	}
	for t, w := range referenceServerWeights(ix, seq) {
		weight[t] = max(weight[t], w)
	}
	for _, terms := range stands {
		for _, q := range terms {
			add(q.term, q.weight)
		}
	}
	finders, adders := rare, common
	if len(rare) == 0 {
		finders, adders = common, nil
	}
	out := r.rank(finders, adders, weight, named, limit)
	if len(out) < limit && len(adders) > 0 && !r.noFill {
		// The common terms find tools too; the tools ranked keep their
		// ranks and scores.
		for _, res := range r.rank(append(slices.Clone(finders), adders...), nil, weight, named, limit) {
			if len(out) < limit && !slices.ContainsFunc(out, func(o Result) bool { return o.Name == res.Name }) {
				out = append(out, res)
			}
		}
	}
	return out
}

// rank ranks every tool that finders find or the query names, scoring the
// terms of finders and then of adders in order, and returns the best limit.
func (r *reference) rank(finders, adders []int32, weight map[int32]float32, named map[int32]nameMatch, limit int) []Result {
	ix := r.ix
	scores := make([]float32, len(ix.names))
	fields := make([]FieldSet, len(ix.names))
	found := make([]bool, len(ix.names))
	var all []candidate
	// A topic that alone finds tools is read at large.
	broad := len(finders) == 1 && len(adders) == 0 && slices.ContainsFunc(topicWords[:], func(tw struct {
		topic string
		words []string
	}) bool {
		return referenceTerms(tw.topic)[0] == ix.terms.keys[finders[0]]
	})
	// Terms in query order: the order in which every tool's scores are
	// summed.
	for _, t := range finders {
		for _, p := range r.termScores(t, broad) {
			scores[p.tool] += float32(weight[t] * p.score)
			fields[p.tool] |= p.fields
			if !found[p.tool] {
				found[p.tool] = true
				all = append(all, candidate{tool: p.tool})
			}
		}
	}
	for _, t := range adders {
		for _, p := range r.termScores(t, false) {
			if found[p.tool] {
				scores[p.tool] += float32(weight[t] * p.score)
				fields[p.tool] |= p.fields
			}
		}
	}
	for i := range all {
		all[i].score, all[i].named = scores[all[i].tool], named[all[i].tool]
	}
	for tool, m := range named {
		if !found[tool] {
			all = append(all, candidate{tool: tool, named: m})
		}
	}
	slices.SortFunc(all, func(a, b candidate) int {
		if a.before(b) {
			return -1
		}
		return 1
	})
	out := []Result{}
	for _, c := range all[:min(limit, len(all))] {
		out = append(out, Result{Name: ix.names[c.tool], Score: float64(c.score), Fields: fields[c.tool], Exact: c.named != notNamed})
	}
	return out
}

// standsFor returns the terms that word, a query term in no tool, stands
// for: those of the tools that begin with it, frame words aside, in
// sorted order, when word is at least minPrefixLen ASCII letters and no
// request word itself and there are at most maxPrefixTerms such terms; none
// otherwise. It scans every term of the index.
func (r *reference) standsFor(word string) []int32 {
	ix := r.ix
	if len(word) < minPrefixLen || strings.Trim(word, "abcdefghijklmnopqrstuvwxyz") != "" || referenceAlwaysFrameWord(word) {
		return nil
	}
	var keys []string
	for t, p := range ix.postings {
		key := ix.terms.keys[t]
		if len(p) > 0 && strings.HasPrefix(key, word) && !referenceAlwaysFrameWord(key) {
			keys = append(keys, key)
		}
	}
	if len(keys) > maxPrefixTerms {
		return nil
	}
	if len(keys) == 0 {
		// The longest term it begins with, with few letters after it.
		for t, p := range ix.postings {
			key := ix.terms.keys[t]
			if len(p) > 0 && strings.HasPrefix(word, key) && key != word && len(key) >= minPrefixLen &&
				len(word)-len(key) <= maxDerivedLetters && !referenceAlwaysFrameWord(key) && (len(keys) == 0 || len(key) > len(keys[0])) {
				keys = []string{key}
			}
		}
	}
	slices.Sort(keys)
	terms := make([]int32, len(keys))
	for i, key := range keys {
		terms[i], _ = ix.terms.lookupString(key)
	}
	return terms
}

// referenceFrameWord reports whether term is a term of a word of
// frameWordLists, as the reference analyzer gives it.
func referenceFrameWord(term string) bool {
	referenceFrames.once.Do(func() {
		referenceFrames.terms = make(map[string]bool)
		for _, list := range frameWordLists {
			for _, w := range list {
				for _, t := range referenceTerms(w) {
					referenceFrames.terms[t] = true
				}
			}
		}
	})
	return referenceFrames.terms[term]
}

var referenceFrames struct {
	once  sync.Once
	terms map[string]bool
}

// repeated makes a catalog of n tools by repeating docs, renaming copies.
func repeated(docs []Document, n int) []Document {
	out := make([]Document, n)
	for i := range out {
		d := docs[i%len(docs)]
		if c := i / len(docs); c > 0 {
			d.Name = fmt.Sprintf("%s.copy%d", d.Name, c)
		}
		out[i] = d
	}
	return out
}

// sameRanking reports whether got ranks as want does: the same tools in the
// same order with the same fields and the same scores.
func sameRanking(got, want []Result) bool {
	return slices.Equal(got, want)
}

// checkAgainstReference compares the rankings of ix with those of
// referenceSearch, whose ranking for a limit is the first so many of its
// ranking for the largest.
func checkAgainstReference(t *testing.T, ix *Index, queries []string, limits []int) {
	t.Helper()
	longest := slices.Max(limits)
	ref := newReference(ix)
	for _, q := range queries {
		all := ref.search(q, longest)
		for _, limit := range limits {
			want := all[:min(limit, len(all))]
			if got := ix.Search(q, limit); !sameRanking(got, want) {
				t.Errorf("Search(%.60q, %d):\n got %v\nwant %v", q, limit, got, want)
			}
		}
	}
}

// TestSearchMatchesReference checks the search against the reference model
// of its ranking, on the test catalog, on a catalog of ties, and with every
// dev request on the dev set repeated to 1,000, 10,000 and 100,000 tools
// (copies renamed) and on 10,000 tools whose copies differ outside their
// names too: the guard for any faster way of reaching the same results. The
// 100,000-tool catalog runs only with the long build tag and without the
// race detector, which would make it take minutes.
func TestSearchMatchesReference(t *testing.T) {
	queries := []string{"weather", "convert units", "customer records trends", "files.list help", "help",
		"records_lookup weather city", "please help", "the", "", "convert convert currencies units temperature",
		"send an email about the weather in a city to a recipient with a thumbnail image"}
	checkAgainstReference(t, mustIndex(t, testCatalog()), queries, []int{1, 2, 5, 20})

	var ties []Document
	for i := range 300 {
		ties = append(ties, Document{Name: fmt.Sprintf("t%d", i), Description: []string{"Print a report.", "Print a weekly report.", "Mail a report.", "Print."}[i%4]})
	}
	checkAgainstReference(t, mustIndex(t, ties), []string{"print report", "report", "weekly report mail", "print t7 t8"}, []int{1, 5, 50})

	docs, dev := loadDevSet(t)
	devQueries := make([]string, len(dev))
	for i, q := range dev {
		devQueries[i] = q.Query
	}
	for _, c := range []struct {
		name    string
		catalog []Document
		limits  []int
	}{
		{"repeated 1,000", repeated(docs, 1_000), []int{1, 5, 12}},
		{"repeated 10,000", repeated(docs, 10_000), []int{1, 5, 12}},
		{"distinct 10,000", distinct(docs, 10_000), []int{5}},
		{"repeated 100,000", repeated(docs, 100_000), []int{5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.catalog) > 10_000 && (!longTests || raceDetector) {
				t.Skip("100,000 tools: a long test, run with -tags long and without the race detector")
			}
			checkAgainstReference(t, mustIndex(t, c.catalog), devQueries, c.limits)
		})
	}
}

// distinct is repeated with the name word of every copy also in its
// description, so that copies differ outside their names.
func distinct(docs []Document, n int) []Document {
	out := repeated(docs, n)
	for i := range out {
		if c := i / len(docs); c > 0 {
			out[i].Description += fmt.Sprintf(" copy%d", c)
		}
	}
	return out
}

// wordStandsFor returns the terms that a query word in no tool, of stem
// term and typed as typed, stands for, with their weights: those it begins
// ([reference.standsFor]), else the terms it is a typing error of, else
// the parts it joins.
func (r *reference) wordStandsFor(term, typed string) []weightedTerm {
	var out []weightedTerm
	if terms := r.standsFor(term); len(terms) > 0 {
		for _, t := range terms {
			out = append(out, weightedTerm{term: t, weight: prefixWeight})
		}
		return out
	}
	if terms := r.joined(typed); len(terms) > 0 {
		for _, t := range terms {
			out = append(out, weightedTerm{term: t, weight: joinedWeight})
		}
		return out
	}
	for _, t := range r.typo(term, typed) {
		out = append(out, weightedTerm{term: t, weight: typoWeight})
	}
	return out
}

// joinedPart returns the term of a part of a joined word: its stem, when
// the part has minJoinedPart letters, is no stop word and no frame word, and
// some tool has it.
func (r *reference) joinedPart(part string) (int32, bool) {
	if len(part) < minJoinedPart || isStopWord([]byte(part)) {
		return 0, false
	}
	s := string(referenceStem([]byte(part)))
	if referenceAlwaysFrameWord(s) {
		return 0, false
	}
	t, ok := r.ix.terms.lookupString(s)
	return t, ok && len(r.ix.postings[t]) > 0
}

// joined returns the terms that typed, of minJoinedLen letters or more, is
// made of when it is two or three terms of the catalog written together that some tool has all of: of the
// splits into the fewest parts, the first whose shortest part is longest.
// It tries every split.
func (r *reference) joined(typed string) []int32 {
	if len(typed) < minJoinedLen || strings.Trim(typed, "abcdefghijklmnopqrstuvwxyz") != "" {
		return nil
	}
	n := len(typed)
	for parts := 2; parts <= maxJoinedParts; parts++ {
		var best []int32
		bestShort := 0
		var try func(at int, terms []int32, short int)
		try = func(at int, terms []int32, short int) {
			if len(terms) == parts-1 {
				if t, ok := r.joinedPart(typed[at:]); ok && min(short, n-at) > bestShort && r.together(append(slices.Clone(terms), t)) {
					best, bestShort = append(slices.Clone(terms), t), min(short, n-at)
				}
				return
			}
			for end := at + 1; end < n; end++ {
				if t, ok := r.joinedPart(typed[at:end]); ok {
					try(end, append(terms, t), min(short, end-at))
				}
			}
		}
		try(0, nil, n)
		if best != nil {
			return best
		}
	}
	return nil
}

// typo returns the terms, in sorted order, with typed's first letter at the
// fewest edits from term or typed, within one for a word of minTypoLen
// letters and two for minTwoTypoLen, when at most maxTypoTerms are that
// close. It scans every term with a full table of edit distances.
func (r *reference) typo(term, typed string) []int32 {
	if len(typed) < minTypoLen || strings.Trim(typed, "abcdefghijklmnopqrstuvwxyz") != "" || referenceAlwaysFrameWord(term) {
		return nil
	}
	limit := 1
	if len(typed) >= minTwoTypoLen {
		limit = 2
	}
	var keys []string
	best := limit + 1
	for t, p := range r.ix.postings {
		key := r.ix.terms.keys[t]
		if len(p) == 0 || key[0] != typed[0] || referenceAlwaysFrameWord(key) {
			continue
		}
		if absDiff(len(key), len(term)) > limit && absDiff(len(key), len(typed)) > limit {
			continue // an edit changes the length by one at most
		}
		d := min(referenceEdits(key, term), referenceEdits(key, typed))
		switch {
		case d < best:
			best, keys = d, []string{key}
		case d == best:
			keys = append(keys, key)
		}
	}
	if best > limit || len(keys) > maxTypoTerms {
		return nil
	}
	slices.Sort(keys)
	terms := make([]int32, len(keys))
	for i, key := range keys {
		terms[i], _ = r.ix.terms.lookupString(key)
	}
	return terms
}

// referenceEdits is the optimal string alignment distance of a and b by its
// full table.
func referenceEdits(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// together reports whether some tool has every one of terms, by a set of
// the tools of each.
func (r *reference) together(terms []int32) bool {
	count := make(map[int32]int)
	for _, t := range terms {
		for _, p := range r.ix.postings[t] {
			count[p.Tool]++
		}
	}
	for _, c := range count {
		if c == len(terms) {
			return true
		}
	}
	return false
}

// referenceFrameWordIn reports whether term is a term of a word of
// frameWordLists, as the reference analyzer gives it, of a list in langs
// when it is a term of englishToo.
func referenceFrameWordIn(term string, langs []bool) bool {
	referenceLists.once.Do(func() {
		referenceLists.ambiguous = make(map[string]bool)
		for _, w := range englishToo {
			for _, t := range referenceTerms(w) {
				referenceLists.ambiguous[t] = true
			}
		}
		for _, list := range frameWordLists {
			terms := make(map[string]bool)
			for _, w := range list {
				for _, t := range referenceTerms(w) {
					terms[t] = true
				}
			}
			referenceLists.terms = append(referenceLists.terms, terms)
		}
	})
	ambiguous := referenceLists.ambiguous[term]
	for i, terms := range referenceLists.terms {
		if ambiguous && !langs[i] {
			continue
		}
		if terms[term] {
			return true
		}
	}
	return false
}

// referenceLists are the terms of each list of frameWordLists and of
// englishToo, by the reference analyzer.
var referenceLists struct {
	once      sync.Once
	terms     []map[string]bool
	ambiguous map[string]bool
}

// referenceRequestLangs returns, per list of frameWordLists, whether its
// words are frame words in query: always for English and the unspaced
// scripts; for Spanish to Italian when query holds at least minLangWords
// of the language's words (its list and evidenceWords, lower-cased), and no
// more English stop words than that. Words are those of the reference
// splitter, each character pair of an unspaced run a word.
func referenceRequestLangs(query string) []bool {
	var words []string
	for pos := 0; ; {
		var term []byte
		var run bool
		term, pos, run = referenceWord(query, pos, nil)
		if term == nil {
			break
		}
		if run {
			words = append(words, referencePairs(string(term))...)
			continue
		}
		words = append(words, string(term))
	}
	langs := make([]bool, len(frameWordLists))
	english := 0
	for _, w := range words {
		if isStopWord([]byte(w)) {
			english++
		}
	}
	for i := range frameWordLists {
		if i < firstWritten || i > lastWritten {
			langs[i] = true
			continue
		}
		n := 0
		for _, w := range words {
			if slices.ContainsFunc(append(slices.Clone(frameWordLists[i]), evidenceWords[i]...), func(l string) bool { return strings.ToLower(l) == w }) {
				n++
			}
		}
		langs[i] = n >= minLangWords && n >= english
	}
	return langs
}

// referenceAlwaysFrameWord reports whether term is a frame word in every
// request: of a list that is always, or of any list and not of englishToo.
func referenceAlwaysFrameWord(term string) bool {
	return referenceFrameWordIn(term, referenceAlways)
}

// referenceAlways holds the lists whose words are frame words in every
// request.
var referenceAlways = func() []bool {
	langs := make([]bool, len(frameWordLists))
	for i := range langs {
		langs[i] = i < firstWritten || i > lastWritten
	}
	return langs
}()

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// referenceCommon reports whether term t is common in ix: in five tools or
// more and, in a catalog of one server (the namespaces of the tools'
// names), in more than a fifth of the tools; in a pool, in more than a
// fifth of the tools and of the tools of the servers other than the one
// that has it most (of most tools among those that have it equally often,
// then the first in catalog order), or in more than 3 in 10 of the servers
// (three at least) and a tenth of the tools.
func referenceCommon(ix *Index, t int32) bool {
	p := ix.postings[t]
	if len(p) < minCommonTools {
		return false
	}
	rs := referenceServersOf(ix)
	n := len(ix.names)
	if len(rs.size) < 2 {
		return float64(len(p)) > 0.2*float64(n)
	}
	has := make(map[string]int)
	for _, tt := range p {
		has[rs.server[tt.Tool]]++
	}
	if len(has) >= 3 && float64(len(has)) > 0.3*float64(len(rs.size)) && float64(len(p)) > 0.1*float64(n) {
		return true
	}
	most := rs.order[0]
	for _, s := range rs.order {
		if has[s] > has[most] || has[s] == has[most] && rs.size[s] > rs.size[most] {
			most = s
		}
	}
	return float64(len(p)) > 0.2*float64(n) && float64(len(p)-has[most]) > 0.2*float64(n-rs.size[most])
}

// referenceServers are the servers of an index's tools: the namespace of
// each tool's name, the number of tools of each, and the servers in
// catalog order.
type referenceServers struct {
	server []string
	size   map[string]int
	order  []string
}

var referenceServersCache sync.Map // *Index to *referenceServers

func referenceServersOf(ix *Index) *referenceServers {
	if rs, ok := referenceServersCache.Load(ix); ok {
		return rs.(*referenceServers)
	}
	rs := &referenceServers{size: make(map[string]int)}
	for _, name := range ix.names {
		s := ""
		if i := strings.LastIndex(name, "."); i >= 0 {
			s = name[:i]
		}
		if rs.size[s] == 0 {
			rs.order = append(rs.order, s)
		}
		rs.size[s]++
		rs.server = append(rs.server, s)
	}
	referenceServersCache.Store(ix, rs)
	return rs
}
