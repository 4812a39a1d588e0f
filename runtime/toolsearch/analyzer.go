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
// kebab-case, dotted and slashed names all break into their words; a run
// split that way gives its whole spelling too, after its words
// ("JavaScript" gives java, script and javascript), so that "javascript"
// typed in lower case finds it as "JavaScript" or "java script" does. English
// stop words are dropped, and so are the clitics of possessives and
// contractions ("Adriel's" gives adriel, "what's" nothing); the rest are
// reduced by a small English stemmer ("calculating", "calculates" and
// "calculation" share a term).
//
// Scripts written without spaces between words (Han, Hiragana, Katakana,
// Thai, Lao, Khmer, Myanmar), and Hangul, whose words carry their particles,
// give overlapping pairs of characters instead, a character being a letter
// with the marks that follow it: "天気予報を" gives 天気, 気予, 予報 and 報を, so
// a word inside a run shares its pairs with the run, with no dictionary of
// any language. A run of one character is its own term, and a run ends any
// other word it touches ("Go言語" gives go and 言語).
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
	// start is where the word just read begins in text.
	start int
	// paired marks that the character at pos is the second of the pair
	// just returned from a run of an unspaced script.
	paired bool
	// run is where the run of letters and digits of the word just read
	// begins: before start when case changes split the run into words.
	// split marks that the word just read ended at a case change, the run
	// going on; joined that the run ended after two words or more, and
	// its whole spelling is the next word ([scanner.joinedWord]).
	run           int
	split, joined bool
	// joins tells whether runs split at case changes give their whole
	// spelling too: they do but in a tool's name ([analysis.text]).
	joins bool
}

func (s *scanner) reset(text string) {
	s.text, s.pos, s.term, s.paired = text, 0, s.term[:0], false
	s.run, s.split, s.joined, s.joins = 0, false, false, true
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
// stemming, leaving out clitics ([scanner.clitic]).
func (s *scanner) word() bool {
	for s.anyWord() {
		if !s.clitic() {
			return true
		}
	}
	return false
}

// clitic reports whether the word just read is the clitic of a possessive or
// a contraction: s, t, d, m, ll, ve or re right after an apostrophe (' or ’)
// that follows a letter or digit, as in "Adriel's", "what's", "don't",
// "I'd", "I'm", "we'll", "I've" and "you're". The word before it means the
// same without it.
func (s *scanner) clitic() bool {
	switch string(s.term) {
	case "s", "t", "d", "m", "ll", "ve", "re":
	default:
		return false
	}
	i := s.start
	switch {
	case i >= 1 && s.text[i-1] == '\'':
		i--
	case i >= 3 && s.text[i-3:i] == "\u2019":
		i -= 3
	default:
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s.text[:i])
	return isWordRune(r)
}

// anyWord moves to the next lower-cased word, before stop word removal and
// stemming, and sets start to where it begins. Bytes are classified by a
// table; runes outside ASCII by package unicode.
func (s *scanner) anyWord() bool {
	s.term = s.term[:0]
	if s.joined {
		s.joinedWord()
		return true
	}
	for {
		// Skip separators.
		for s.pos < len(s.text) {
			kind := byteKinds[s.text[s.pos]]
			if kind == kindMultiByte {
				r, n := utf8.DecodeRuneInString(s.text[s.pos:])
				if isWordRune(r) {
					break
				}
				s.pos += n
				continue
			}
			if kind != kindSeparator {
				break
			}
			s.pos++
		}
		if s.pos >= len(s.text) {
			return false
		}
		s.start = s.pos
		if s.kindAt(s.pos) != kindUnspaced {
			break
		}
		if s.pair() {
			return true
		}
	}
	if !s.split {
		s.run = s.start
	}
	s.split = false
	prev := kindSeparator // the kind of the word's last rune
	for s.pos < len(s.text) {
		kind := byteKinds[s.text[s.pos]]
		if kind == kindLower || kind == kindDigit {
			// A run of them joins the word whatever precedes it.
			end := s.pos + 1
			for end < len(s.text) {
				if k := byteKinds[s.text[end]]; k != kindLower && k != kindDigit {
					break
				}
				end++
			}
			s.term = append(s.term, s.text[s.pos:end]...)
			prev = byteKinds[s.text[end-1]]
			s.pos = end
			continue
		}
		r, n := rune(s.text[s.pos]), 1
		if kind == kindMultiByte {
			r, n = utf8.DecodeRuneInString(s.text[s.pos:])
			kind = unicodeKind(r)
		}
		if kind == kindSeparator || kind == kindUnspaced {
			break
		}
		if kind == kindUpper && len(s.term) > 0 {
			if prev == kindLower || prev == kindDigit {
				s.split = true
				break // "serverStatus", "base64Encode"
			}
			// The last capital of an acronym starts the next word:
			// "HTTPServer" splits before "S".
			if prev == kindUpper && s.pos+n < len(s.text) && s.kindAt(s.pos+n) == kindLower {
				s.split = true
				break
			}
		}
		if r < utf8.RuneSelf {
			s.term = append(s.term, byte(r)|0x20) // an upper-case letter
		} else {
			s.term = utf8.AppendRune(s.term, unicode.ToLower(r))
		}
		prev = kind
		s.pos += n
	}
	s.joined = s.joins && !s.split && s.run < s.start
	return true
}

// joinedWord reads the whole of the run that case changes split into the
// words just read, lower-cased, as one word more: "JavaScript" gives java
// and script, then javascript, so that the word is found however it is
// spelled ("javascript", "Javascript", "JavaScript"), and so are
// "GitHub", "PostgreSQL", "OAuth" and "getCurrentWeather" by the word a
// user types in lower case.
func (s *scanner) joinedWord() {
	s.joined, s.start = false, s.run
	for _, r := range s.text[s.run:s.pos] {
		switch {
		case 'A' <= r && r <= 'Z':
			s.term = append(s.term, byte(r)|0x20)
		case r < utf8.RuneSelf:
			s.term = append(s.term, byte(r))
		default:
			s.term = utf8.AppendRune(s.term, unicode.ToLower(r))
		}
	}
}

// runeKind is what the word splitter needs to know of a rune.
type runeKind uint8

const (
	kindSeparator runeKind = iota // not a letter, digit or mark
	kindLower                     // a lower-case letter
	kindUpper                     // an upper-case letter
	kindDigit                     // a decimal digit
	kindOther                     // another letter or digit, or a mark
	kindUnspaced                  // a letter of a script written without spaces
	kindMultiByte                 // a byte of a rune outside ASCII, in byteKinds
)

// byteKinds is the kind of every ASCII character, and kindMultiByte for
// every other byte.
var byteKinds = func() (kinds [256]runeKind) {
	for c := range kinds {
		switch {
		case 'a' <= c && c <= 'z':
			kinds[c] = kindLower
		case 'A' <= c && c <= 'Z':
			kinds[c] = kindUpper
		case '0' <= c && c <= '9':
			kinds[c] = kindDigit
		case c >= utf8.RuneSelf:
			kinds[c] = kindMultiByte
		}
	}
	return kinds
}()

// unicodeKind returns the kind of a rune outside ASCII.
func unicodeKind(r rune) runeKind {
	switch {
	case !isWordRune(r):
		return kindSeparator
	case isUnspaced(r):
		return kindUnspaced
	case unicode.IsUpper(r):
		return kindUpper
	case unicode.IsLower(r):
		return kindLower
	case unicode.IsDigit(r):
		return kindDigit
	}
	return kindOther
}

// kindAt returns the kind of the rune at text[i:].
func (s *scanner) kindAt(i int) runeKind {
	if kind := byteKinds[s.text[i]]; kind != kindMultiByte {
		return kind
	}
	r, _ := utf8.DecodeRuneInString(s.text[i:])
	return unicodeKind(r)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// pair moves past the character at pos, the start of a character of an
// unspaced script, and reports whether it made a term: the character and the
// next one when the run goes on, the character alone when it is the whole
// run. The last character of a longer run makes none, being the second of
// the pair before it.
func (s *scanner) pair() bool {
	first := s.charEnd(s.pos)
	if first < len(s.text) && s.kindAt(first) == kindUnspaced {
		s.term = append(s.term, s.text[s.pos:s.charEnd(first)]...)
		s.pos, s.paired = first, true
		return true
	}
	paired := s.paired
	if !paired {
		s.term = append(s.term, s.text[s.pos:first]...)
	}
	s.pos, s.paired = first, false
	return !paired
}

// charEnd returns the end of the character at text[i:]: its rune and the
// marks that follow it.
func (s *scanner) charEnd(i int) int {
	_, n := utf8.DecodeRuneInString(s.text[i:])
	for i += n; i < len(s.text) && s.text[i] >= utf8.RuneSelf; i += n {
		var r rune
		r, n = utf8.DecodeRuneInString(s.text[i:])
		if !unicode.IsMark(r) {
			break
		}
	}
	return i
}

// unspacedScripts are the scripts written without spaces between words.
var unspacedScripts = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar,
}

// isUnspaced reports whether r is a letter or digit of a script written
// without spaces, or the Katakana prolonged sound mark (of no single script).
func isUnspaced(r rune) bool {
	if r < 0x0E00 || unicode.IsMark(r) || !isWordRune(r) {
		return false // below Thai, the first of the scripts
	}
	return r == 'ー' || r == 'ｰ' || unicode.In(r, unspacedScripts...)
}
