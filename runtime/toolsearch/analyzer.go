package toolsearch

import (
	"unicode"
	"unicode/utf8"
)

// Terms is the one analyzer of the package: it turns text into the terms that
// are counted and searched. Code generation, registry catalogs and queries all
// go through it, so precomputed counts always agree with queries.
//
// A term is a run of Unicode letters, digits and marks, lower-cased. Runs are
// split further at case changes, including the end of an acronym
// ("HTTPServerStatus" gives http, server, status), so camelCase, snake_case,
// kebab-case, dotted and slashed names all break into their words. English
// stop words are dropped and the rest are reduced by a small English stemmer
// ("calculating", "calculates" and "calculation" share a term).
func Terms(text string) []string {
	var terms []string
	var s scanner
	s.reset(text)
	for s.next() {
		terms = append(terms, string(s.term))
	}
	return terms
}

// scanner is the allocation-free core of [Terms]: next analyzes the following
// term of text into term, reusing its storage.
type scanner struct {
	text string
	pos  int
	term []byte
}

func (s *scanner) reset(text string) {
	s.text, s.pos, s.term = text, 0, s.term[:0]
}

// next moves to the next term that is not a stop word and reports whether
// there is one.
func (s *scanner) next() bool {
	for s.word() {
		if isStopWord(s.term) {
			continue
		}
		s.term = stem(s.term)
		return true
	}
	return false
}

// word moves to the next lower-cased word, before stop word removal and
// stemming.
func (s *scanner) word() bool {
	s.term = s.term[:0]
	// Skip separators.
	for s.pos < len(s.text) {
		r, n := decode(s.text, s.pos)
		if isWordRune(r) {
			break
		}
		s.pos += n
	}
	if s.pos >= len(s.text) {
		return false
	}
	var prev rune
	for s.pos < len(s.text) {
		r, n := decode(s.text, s.pos)
		if !isWordRune(r) {
			break
		}
		if len(s.term) > 0 && unicode.IsUpper(r) {
			if unicode.IsLower(prev) || unicode.IsDigit(prev) {
				break // "serverStatus", "base64Encode"
			}
			if unicode.IsUpper(prev) {
				// The last capital of an acronym starts the next word:
				// "HTTPServer" splits before "S".
				if s.pos+n < len(s.text) {
					if next, _ := decode(s.text, s.pos+n); unicode.IsLower(next) {
						break
					}
				}
			}
		}
		s.term = appendLower(s.term, r)
		prev = r
		s.pos += n
	}
	return true
}

// decode returns the rune at text[i:] and its width; invalid UTF-8 decodes as
// utf8.RuneError, which is a separator.
func decode(text string, i int) (rune, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
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
