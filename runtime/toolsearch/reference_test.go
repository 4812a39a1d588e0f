package toolsearch

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the reference model of the analyzer and of counting: the
// plain rune-by-rune word splitter and a count over a schema decoded into
// generic values with encoding/json. The package's fast paths must agree
// with it on every input it accepts; the tests and fuzz targets compare them.

// referenceTerms is [Terms] by the reference word splitter.
func referenceTerms(text string) []string {
	return referenceTermsJoined(text, true)
}

// referenceTermsJoined is [referenceTerms], with the whole spelling of
// every run of letters and digits that case changes split into words after
// its words when joined is set.
func referenceTermsJoined(text string, joined bool) []string {
	var terms []string
	var term []byte
	add := func(start int, term []byte) {
		if !isStopWord(term) && !referenceClitic(text, start, string(term)) {
			terms = append(terms, string(referenceStem(term)))
		}
	}
	runStart, split := 0, false
	for pos := 0; ; {
		var run bool
		start := pos
		for start < len(text) {
			r, n := decode(text, start)
			if isWordRune(r) {
				break
			}
			start += n
		}
		if !split {
			runStart = start
		}
		split = false
		term, pos, run = referenceWord(text, pos, term[:0])
		if term == nil {
			return terms
		}
		if run {
			terms = append(terms, referencePairs(string(term))...)
			continue
		}
		add(start, term)
		// The run goes on when a letter or digit of a spaced script
		// follows: a case change split it.
		if pos < len(text) {
			if r, _ := decode(text, pos); isWordRune(r) && !isUnspaced(r) {
				split = true
				continue
			}
		}
		if joined && runStart < start {
			var whole []byte
			for _, r := range text[runStart:pos] {
				whole = appendLower(whole, r)
			}
			add(runStart, whole)
		}
	}
}

// referenceClitic reports whether word, which begins at text[start:], is
// the clitic of a possessive or contraction: an apostrophe before it, a
// letter or digit before that.
func referenceClitic(text string, start int, word string) bool {
	if !slices.Contains([]string{"s", "t", "d", "m", "ll", "ve", "re"}, word) {
		return false
	}
	before := []rune(text[:start])
	n := len(before)
	return n >= 2 && (before[n-1] == '\'' || before[n-1] == '’') && isWordRune(before[n-2])
}

// referencePairs returns the overlapping pairs of characters (a letter and
// the marks after it) of a run of an unspaced script, or the run itself when
// it is one character.
func referencePairs(run string) []string {
	var chars []string
	for i, r := range run {
		if i == 0 || !unicode.IsMark(r) {
			chars = append(chars, string(r))
		} else {
			chars[len(chars)-1] += string(r)
		}
	}
	if len(chars) == 1 {
		return chars
	}
	pairs := make([]string, len(chars)-1)
	for i := range pairs {
		pairs[i] = chars[i] + chars[i+1]
	}
	return pairs
}

// referenceWord returns the next lower-cased word of text from pos, and the
// position after it; a nil word at the end of text. A run of letters of an
// unspaced script, with their marks, is a word of its own, reported as a run.
func referenceWord(text string, pos int, term []byte) ([]byte, int, bool) {
	for pos < len(text) {
		r, n := decode(text, pos)
		if isWordRune(r) {
			break
		}
		pos += n
	}
	if pos >= len(text) {
		return nil, pos, false
	}
	if r, _ := decode(text, pos); isUnspaced(r) {
		for pos < len(text) {
			r, n := decode(text, pos)
			if !isUnspaced(r) && !(unicode.IsMark(r) && r != utf8.RuneError) {
				break
			}
			term = append(term, text[pos:pos+n]...)
			pos += n
		}
		return term, pos, true
	}
	var prev rune
	for pos < len(text) {
		r, n := decode(text, pos)
		if !isWordRune(r) || isUnspaced(r) {
			break
		}
		if len(term) > 0 && unicode.IsUpper(r) {
			if unicode.IsLower(prev) || unicode.IsDigit(prev) {
				break
			}
			if unicode.IsUpper(prev) && pos+n < len(text) {
				if next, _ := decode(text, pos+n); unicode.IsLower(next) {
					break
				}
			}
		}
		term = appendLower(term, r)
		prev = r
		pos += n
	}
	return term, pos, false
}

// decode returns the rune at text[i:] and its width; invalid UTF-8 decodes as
// utf8.RuneError, which is a separator.
func decode(text string, i int) (rune, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

func appendLower(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, unicode.ToLower(r))
}

// referenceStem is [stem] with every derivational suffix tried in turn.
func referenceStem(w []byte) []byte {
	if len(w) < 4 || !asciiLetters(w) {
		return w
	}
	w = stemInflection(stemPlural(w))
	for _, d := range derivations {
		if hasSuffix(w, d.suffix) && len(w)-len(d.suffix) >= 4 {
			w = append(w[:len(w)-len(d.suffix)], d.base...)
			break
		}
	}
	if len(w) > 3 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	if n := len(w); w[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(w[n-2])) {
		w[n-1] = 'i'
	}
	return w
}

// referenceCount is [Count] over parameters decoded by encoding/json, for
// parameters without duplicate keys that encoding/json decodes.
func referenceCount(doc Document) (Counts, error) {
	byTerm := make(map[string]*FieldCounts)
	add := func(f Field, text string) {
		for _, term := range referenceTermsJoined(text, f != FieldName) {
			fc, ok := byTerm[term]
			if !ok {
				fc = new(FieldCounts)
				byTerm[term] = fc
			}
			fc.add(f)
		}
	}
	alias := doc.Alias
	if alias == doc.Name {
		alias = ""
	}
	// A name's parts but the last, split at its dots, are its namespace.
	for _, name := range []string{doc.Name, alias} {
		parts := strings.Split(name, ".")
		add(FieldNamespace, strings.Join(parts[:len(parts)-1], " "))
		add(FieldName, parts[len(parts)-1])
	}
	add(FieldTitle, doc.Title)
	add(FieldDescription, doc.Description)
	if len(doc.Parameters) > 0 {
		var root any
		if err := json.Unmarshal(doc.Parameters, &root); err != nil {
			return Counts{}, err
		}
		referenceSchema(root, add)
	}
	for _, term := range doc.SearchTerms {
		add(FieldExtra, term)
	}
	c := Counts{Name: doc.Name, Alias: alias}
	for term, fc := range byTerm {
		c.Terms = append(c.Terms, TermCounts{Term: term, Counts: *fc})
	}
	slices.SortFunc(c.Terms, func(a, b TermCounts) int { return strings.Compare(a.Term, b.Term) })
	return c, nil
}

func referenceSchema(node any, add func(Field, string)) {
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	for _, key := range []string{"title", "description"} {
		if s, ok := m[key].(string); ok {
			add(FieldParamDescription, s)
		}
	}
	if enum, ok := m["enum"].([]any); ok {
		for _, v := range enum {
			if s, ok := v.(string); ok {
				add(FieldParamDescription, s)
			}
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			add(FieldParamName, name)
			referenceSchema(sub, add)
		}
	}
	for _, key := range []string{"items", "additionalProperties", "not", "contains",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "if", "then", "else"} {
		referenceSchema(m[key], add)
	}
	for _, key := range []string{"prefixItems", "anyOf", "oneOf", "allOf"} {
		if list, ok := m[key].([]any); ok {
			for _, sub := range list {
				referenceSchema(sub, add)
			}
		}
	}
	for _, key := range []string{"$defs", "definitions", "patternProperties", "dependentSchemas"} {
		if subs, ok := m[key].(map[string]any); ok {
			for _, sub := range subs {
				referenceSchema(sub, add)
			}
		}
	}
}
