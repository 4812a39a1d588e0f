package toolsearch

import (
	"fmt"
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
	a.name(doc.Name)
	if doc.Alias != doc.Name {
		a.name(doc.Alias)
	}
	a.text(FieldTitle, doc.Title)
	a.text(FieldDescription, doc.Description)
	if len(doc.Parameters) > 0 {
		if err := a.schema.read(string(doc.Parameters)); err != nil {
			return fmt.Errorf("%w: tool %q: parameters: %w", ErrInvalidDocument, doc.Name, err)
		}
	}
	for _, term := range doc.SearchTerms {
		a.text(FieldExtra, term)
	}
	return nil
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

// text counts the terms of s in field f of the current document.
func (a *analysis) text(f Field, s string) {
	a.scan.reset(s)
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
