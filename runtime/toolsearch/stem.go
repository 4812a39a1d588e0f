package toolsearch

// stem reduces a lower-cased English word to a stem in place, so that
// inflected and derived forms of a word share one term: "queries" and "query",
// "movies" and "movie", "calculating", "calculated" and "calculation",
// "available" and "availability". It is a small suffix stripper, not a full morphological analyzer; it leaves short
// words, words with digits and words outside ASCII letters as they are. Both
// sides of a search go through it, so a stem only has to be consistent, not a
// real word.
func stem(w []byte) []byte {
	if len(w) < 4 || !asciiLetters(w) {
		return w
	}
	w = stemPlural(w)
	w = stemInflection(w)
	w = stemDerivation(w)
	// A final e is dropped so that "compute" meets "computing" and "computed".
	if len(w) > 3 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	// A final y after a consonant becomes i, as in the Porter2 stemmer, so
	// that the y that an -ies plural was given back ("movies" -> "movy")
	// meets the singular that lost its e ("movie" -> "movi"), and "query"
	// meets "queried".
	if n := len(w); w[n-1] == 'y' && !isVowel(w[n-2]) {
		w[n-1] = 'i'
	}
	return w
}

// stemPlural removes a plural or third-person s.
func stemPlural(w []byte) []byte {
	switch {
	case hasSuffix(w, "sses"):
		return w[:len(w)-2]
	case hasSuffix(w, "ies"):
		if len(w) > 4 {
			w = w[:len(w)-2]
			w[len(w)-1] = 'y'
			return w
		}
		return w[:len(w)-1]
	case hasSuffix(w, "s") && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// stemInflection removes -ing and -ed when what is left still has a vowel
// and at least three letters, then undoubles a final consonant
// ("running" -> "run").
func stemInflection(w []byte) []byte {
	var n int
	switch {
	case hasSuffix(w, "eed"):
		return w
	case hasSuffix(w, "ing"):
		n = 3
	case hasSuffix(w, "ed"):
		n = 2
	default:
		return w
	}
	rest := w[:len(w)-n]
	if len(rest) < 3 || !hasVowel(rest) {
		return w
	}
	if l := len(rest); rest[l-1] == rest[l-2] && !isVowel(rest[l-1]) {
		switch rest[l-1] {
		case 'l', 's', 'z':
		default:
			rest = rest[:l-1]
		}
	}
	return rest
}

// derivations maps derivational suffixes to the suffix of their base word,
// the first that fits applying. Nouns in -ity go back to their adjective
// ("similarity" to "similar", "personality" to "personal"), and adjectives in
// -able and -ible, with their nouns in -ability and -ibility, to the stem
// they were made from ("available" and "availability" to "avail",
// "reliable" to "reli", as "rely" stems, "compatible" and "compatibility" to
// "compat"), so that a request and a tool that name one property with two
// parts of speech meet.
var derivations = [...]derivation{
	{"ational", "ate"},
	{"ization", "ize"},
	{"ability", ""},
	{"ibility", ""},
	{"ation", "ate"},
	{"ivity", "ive"},
	{"ality", "al"},
	{"arity", "ar"},
	{"icity", "ic"},
	{"ator", "ate"},
	{"izer", "ize"},
	{"ical", "ic"},
	{"able", ""},
	{"ible", ""},
	{"ness", ""},
}

// derivation is a derivational suffix and the suffix of its base word.
type derivation struct{ suffix, base string }

// derivationsByLast are the derivations by the last letter of their suffix,
// in their order: only those can fit a word ending in that letter.
var derivationsByLast = func() (by [26][]derivation) {
	for _, d := range derivations {
		c := d.suffix[len(d.suffix)-1] - 'a'
		by[c] = append(by[c], d)
	}
	return by
}()

// stemDerivation maps a few derived forms to their base ("calculation" and
// "calculator" to "calculate", "availability" to "avail"), keeping at least
// four letters of stem.
func stemDerivation(w []byte) []byte {
	for _, d := range derivationsByLast[w[len(w)-1]-'a'] {
		if !hasSuffix(w, d.suffix) || len(w)-len(d.suffix) < 4 {
			continue
		}
		w = append(w[:len(w)-len(d.suffix)], d.base...)
		break
	}
	return w
}

func hasSuffix(w []byte, s string) bool {
	return len(w) >= len(s) && string(w[len(w)-len(s):]) == s
}

func hasVowel(w []byte) bool {
	for _, c := range w {
		if isVowel(c) || c == 'y' {
			return true
		}
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

func asciiLetters(w []byte) bool {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
