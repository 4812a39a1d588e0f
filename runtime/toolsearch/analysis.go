package toolsearch

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strings"
)

// analysis counts the terms of tool documents with [Terms]' scanner. It
// numbers the distinct terms of all the documents it reads once, in a
// dictionary, and keeps each document's counts in place, so that counting
// one occurrence of a term costs one hash and no allocation; only a term
// seen for the first time is copied. [NewIndexFromDocuments] scores the
// counts of a whole catalog straight from it and [Count] returns those of
// one document.
type analysis struct {
	terms dictionary
	// words numbers the distinct words read, before stop word removal and
	// stemming; wordTerm is the term of each, -1 for a stop word. A word
	// seen before thus costs one hash, and is neither matched against the
	// stop words nor stemmed again. The zero words remembers nothing.
	words    dictionary
	wordTerm []int32
	// occs holds the counts of every term of every document read, document
	// by document; the current document's start at start.
	occs  []occurrence
	start int
	// last is, for each term, its position in occs in the latest document
	// that has it: the current document has the term when last >= start.
	last []int
	// value marks the value terms ([isValueTerm]), which do not count in
	// the length of a field.
	value []bool
	tool  int32
	// length is the number of terms in each field of the current document,
	// value terms left out.
	length [numFields]int64
	scan   scanner
	schema schemaReader
	// When remembering, starts holds where each document's counts start
	// in occs, descriptions the first document of every description read
	// and schemas, by a hash of their text, the first document of every
	// parameter schema read: a catalog pooled from several servers
	// repeats them, and a text read before is counted from that
	// document's counts without scanning it again. Neither copies a text.
	starts       []int
	descriptions map[string]int32
	schemas      map[uint64]schemaText
	seed         maphash.Seed
}

// schemaText is a parameter schema as the first document that has it holds
// it, and that document.
type schemaText struct {
	text []byte
	tool int32
}

// termsPerTool is the number of distinct terms a typical tool has, to size
// an analysis.
const termsPerTool = 32

// occurrence is how often a term occurs in each field of one tool.
type occurrence struct {
	term   int32
	tool   int32
	counts FieldCounts
}

// newAnalysis returns an analysis sized for about terms distinct terms and
// occs term counts. With remember, it remembers the term of every word, which
// pays when many documents share their words.
func newAnalysis(terms, occs int, remember bool) *analysis {
	a := &analysis{
		terms: newDictionary(terms),
		occs:  make([]occurrence, 0, occs),
		last:  make([]int, 0, terms),
		value: make([]bool, 0, terms),
	}
	if remember {
		a.words = newDictionary(terms)
		a.wordTerm = make([]int32, 0, terms)
		a.descriptions = make(map[string]int32)
		a.schemas = make(map[uint64]schemaText)
		a.seed = maphash.MakeSeed()
	}
	a.schema.emit = a.text
	return a
}

// document analyzes doc, whose name is not empty, as tool number tool. Its
// counts are a.occs[a.start:] and its field lengths a.length. It fails with
// an error wrapping [ErrInvalidDocument] when the parameters are not a JSON
// Schema.
func (a *analysis) document(doc *Document, tool int32) error {
	a.start, a.tool, a.length = len(a.occs), tool, [numFields]int64{}
	if a.descriptions != nil {
		a.starts = append(a.starts, a.start)
	}
	a.name(doc.Name)
	if doc.Alias != doc.Name {
		a.name(doc.Alias)
	}
	a.text(FieldTitle, doc.Title)
	// A description or schema read before is counted from the first
	// document that has it, in one pass when both are that document's.
	from, set := int32(-1), FieldSet(0)
	if first, ok := a.descriptions[doc.Description]; ok {
		from, set = first, 1<<FieldDescription
	} else {
		a.text(FieldDescription, doc.Description)
		if a.descriptions != nil {
			a.descriptions[doc.Description] = tool
		}
	}
	if len(doc.Parameters) > 0 {
		first, err := a.parameters(doc.Parameters)
		switch params := FieldSet(1<<FieldParamName | 1<<FieldParamDescription); {
		case err != nil:
			return fmt.Errorf("%w: tool %q: parameters: %w", ErrInvalidDocument, doc.Name, err)
		case first < 0:
		case from < 0 || from == first:
			from, set = first, set|params
		default:
			a.countFrom(first, params)
		}
	}
	if from >= 0 {
		a.countFrom(from, set)
	}
	for _, term := range doc.SearchTerms {
		a.text(FieldExtra, term)
	}
	return nil
}

// parameters counts the terms of a parameter schema in the current
// document, unless the analysis remembers the first document that has it:
// it returns that document, whose counts the caller counts, or -1.
func (a *analysis) parameters(params []byte) (int32, error) {
	if a.schemas == nil {
		return -1, a.schema.read(string(params))
	}
	h := maphash.Bytes(a.seed, params)
	first, seen := a.schemas[h]
	if seen && bytes.Equal(first.text, params) {
		return first.tool, nil
	}
	if err := a.schema.read(string(params)); err != nil {
		return -1, err
	}
	if !seen { // another schema of the same hash keeps its place
		a.schemas[h] = schemaText{text: params, tool: a.tool}
	}
	return -1, nil
}

// countFrom counts in the current document the counts of an earlier
// document, tool, in the fields of set: those of a text that both have,
// the only one either has in those fields.
func (a *analysis) countFrom(tool int32, set FieldSet) {
	end := a.start
	if int(tool)+1 < len(a.starts) {
		end = a.starts[tool+1]
	}
	for i := a.starts[tool]; i < end; i++ {
		id, c := a.occs[i].term, a.occs[i].counts.in(set)
		if c == (FieldCounts{}) {
			continue
		}
		p := a.last[id]
		if p < a.start {
			p = len(a.occs)
			a.last[id] = p
			a.occs = append(a.occs, occurrence{term: id, tool: a.tool})
		}
		a.occs[p].counts.addCounts(&c)
		if !a.value[id] {
			c.addTo(&a.length)
		}
	}
}

// name counts the terms of a tool's name or model-facing name: those before
// its last dot in [FieldNamespace] ("euro_history" in
// "euro_history.treaty_info", "sports_data.basketball" in
// "sports_data.basketball.most_points_career"), the others in [FieldName].
// A namespace names the family of tools the tool belongs to, and the words
// after it what the tool does.
func (a *analysis) name(s string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		a.text(FieldNamespace, s[:i])
		s = s[i+1:]
	}
	a.text(FieldName, s)
}

// text counts the terms of s in field f of the current document. A word
// that case changes split ("JavaScript") counts as its parts and as its
// whole spelling, but in the name: a name is found whole up to case and
// separators ([Index.markFolded]), and its words are the units of its
// share ([nameShareWeight]), which a whole spelling would dilute.
func (a *analysis) text(f Field, s string) {
	a.scan.reset(s)
	a.scan.joins = f != FieldName
	for a.scan.word() {
		id := a.term()
		if id < 0 {
			continue // a stop word
		}
		p := a.last[id]
		if p < a.start {
			p = len(a.occs)
			a.last[id] = p
			a.occs = append(a.occs, occurrence{term: id, tool: a.tool})
		}
		a.occs[p].counts.add(f)
		if !a.value[id] {
			a.length[f]++
		}
	}
}

// term returns the term of the word the scanner is at, or -1 for a stop
// word: what [scanner.next] makes of it.
func (a *analysis) term() int32 {
	remember := a.words.slots != nil
	if remember {
		if w, added := a.words.addBytes(a.scan.term); !added {
			return a.wordTerm[w]
		}
	}
	id := int32(-1)
	if !isStopWord(a.scan.term) {
		var fresh bool
		if id, fresh = a.terms.addBytes(stem(a.scan.term)); fresh {
			a.last = append(a.last, -1)
			a.value = append(a.value, isValueTerm(a.terms.keys[id]))
		}
	}
	if remember {
		a.wordTerm = append(a.wordTerm, id)
	}
	return id
}
