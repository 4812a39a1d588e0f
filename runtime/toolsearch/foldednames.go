package toolsearch

import (
	"unicode"
	"unicode/utf8"
)

// People type a tool's name as they please: "judge0_extra_ce_get_languages"
// or "Judge0 Extra CE Get Languages" for Judge0_Extra_CE_Get_Languages,
// "getCurrentWeather" or "get-current-weather" for get_current_weather. A
// query that is a tool's name up to case and separators names that tool as
// an exact name does, one rank below: tools named exactly first, then tools
// named so, then the others by score. Its folded form (the letters and
// digits of the name, lower-cased, without anything between them) is what
// the two share; an index folds its names once, on its first search, and a
// search folds the whole query.
//
// The whole query names a tool more surely than one of its words does, and
// a spelling closer to the name more surely than a looser one, so the tools
// a query names rank in the order of [nameMatch]: "vegan restaurant.find
// nearby" names vegan_restaurant.find_nearby before restaurant.find, which
// is one of its words, "MATH.GCD" names math.gcd before math_gcd, and
// "hotel booking.book" names hotel_booking.book before hotel_booking_book:
// spelled the same up to case and the separators _, - and space.

// nameMatch is how a query names a tool; a greater match ranks first.
type nameMatch uint8

const (
	notNamed     nameMatch = iota
	namedWord              // by a word that is its exact name
	namedFolded            // by the whole query, up to case and separators
	namedSpelled           // by the whole query, up to case and _ - space
	namedExactly           // by the whole query, exactly
)

// foldedNames finds the names of an index by their folded form.
type foldedNames struct {
	keys dictionary // the folded names
	// first is the first entry of ix.named of each key, next the entry
	// after each entry with the same key; -1 ends a list.
	first, next []int32
}

// foldNames folds the index's names, once, on the first search.
func (ix *Index) foldNames() *foldedNames {
	ix.foldingNames.Do(func() {
		f := &ix.folded
		f.keys = newDictionary(len(ix.named))
		f.next = make([]int32, len(ix.named))
		var last []int32 // the last entry of each key
		var buf []byte
		for id := range ix.named {
			buf = appendFolded(buf[:0], ix.byName.keys[id])
			f.next[id] = -1
			k, added := f.keys.addBytes(buf)
			if added {
				f.first, last = append(f.first, int32(id)), append(last, int32(id))
				continue
			}
			f.next[last[k]], last[k] = int32(id), int32(id)
		}
	})
	return &ix.folded
}

// appendFolded appends to dst the folded form of s: its letters, digits
// and marks, lower-cased, and nothing else.
func appendFolded(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				dst = append(dst, c)
			case 'A' <= c && c <= 'Z':
				dst = append(dst, c|0x20)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isWordRune(r) {
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
		i += n
	}
	return dst
}

// markFolded marks the tools whose folded name is that of query, the whole
// query: with [namedSpelled] those spelled as it is, with [namedFolded] the
// others.
func (ix *Index) markFolded(st *searchState, query string) {
	st.fold = appendFolded(st.fold[:0], query)
	if len(st.fold) == 0 {
		return
	}
	f := ix.foldNames()
	k, ok := f.keys.lookup(st.fold)
	if !ok {
		return
	}
	for id := f.first[k]; id >= 0; id = f.next[id] {
		m := namedFolded
		if sameSpelling(ix.byName.keys[id], query) {
			m = namedSpelled
		}
		st.markNamed(ix.named[id].tool, m)
	}
}

// sameSpelling reports whether a and b are spelled the same up to case and
// the separators _, - and white space, a run of which counts as one.
func sameSpelling(a, b string) bool {
	for a != "" && b != "" {
		sepA, sepB := isSpellingSeparator(a[0]), isSpellingSeparator(b[0])
		if sepA != sepB {
			return false
		}
		if sepA {
			a, b = trimSpellingSeparators(a), trimSpellingSeparators(b)
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb && unicode.ToLower(ra) != unicode.ToLower(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return a == "" && b == ""
}

func isSpellingSeparator(c byte) bool {
	switch c {
	case '_', '-', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func trimSpellingSeparators(s string) string {
	i := 0
	for i < len(s) && isSpellingSeparator(s[i]) {
		i++
	}
	return s[i:]
}
