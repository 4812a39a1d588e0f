package toolsearch

import (
	"slices"
	"strings"
)

// Frame words are the words of a request that say nothing of the tool it
// wants: the English words that frame a request ("please", "can you help",
// "I want", "tell me", "I need to know", "right now"), and the function
// words (articles, prepositions, conjunctions, pronouns, auxiliaries) and
// framing words of Spanish, French, German, Portuguese and Italian, and the
// particles of Japanese, Chinese and Korean. A query's frame words find no
// tool and add to no score: "trabajo de camarero en Madrid" is searched for
// trabajo, camarero and madrid, and a request of frame words only ("please
// help me", "I want to know more", "から") finds nothing but the tools it
// names exactly. Tools keep them: the analyzer drops English stop words only
// ([isStopWord]), so counts made at generation time do not depend on this
// list, and a tool named "help" is still found by its name.
//
// The lists are small and general; they know nothing of any catalog. A word
// that is also a content word of English, or a symbol or abbreviation tools
// use, is left out even where it is a function word of its language: "sin"
// (the sine), "plus", "par", "est" (a time zone), "dir" (a directory), "au" (gold, an
// astronomical unit), "mi" (miles), "chi" (chi-squared), "sim" (a SIM card),
// German "die", "war", "den", "bin", "hat", "man" and "mit", French "son",
// and the single letters "y", "e", "o" and "u" (coordinates, constants,
// units); and so is a word whose stem is such a word ("sans" and "san" of
// San Francisco, "dans" and Dan, "este" and "est", Italian "come" and the
// "com" of a domain, Portuguese "pode" and a pod, Italian "delle" and Dell). A pair of an unspaced script that spans a particle and a word
// ("京の" in "東京の天気") is left as it is: it is a term of the tools that
// have the same pair.
var frameWordLists = [...][]string{
	// English: words that frame a request, and "now", which says when.
	{"please", "kindly", "want", "need", "like", "tell", "know", "help", "hi", "hello", "hey",
		"thank", "thanks", "may", "might", "must", "shall", "let", "wonder", "also", "now"},
	// Spanish.
	{"de", "del", "la", "el", "los", "las", "un", "una", "unos", "unas", "al", "en", "por", "para", "con",
		"que", "qué", "es", "se", "su", "sus", "lo", "le", "les", "mis", "te", "nos", "como", "cómo",
		"más", "pero", "muy", "esta", "esto", "ese", "esa", "eso", "entre", "sobre", "hasta",
		"desde", "cuando", "cuándo", "cual", "cuál", "donde", "dónde", "quiero", "necesito", "puedes",
		"favor", "hay", "está", "están", "estoy", "tiene", "hola", "gracias", "mí", "yo"},
	// French.
	{"le", "les", "des", "du", "une", "et", "ou", "où", "aux", "à", "ce", "ces", "cette", "cet",
		"sont", "pour", "sur", "avec", "qui", "quoi", "quel", "quelle", "je", "tu",
		"il", "elle", "nous", "vous", "ils", "elles", "mon", "ma", "mes", "ton", "ta", "tes", "sa",
		"ses", "leur", "leurs", "ne", "pas", "très", "moi", "veux", "voudrais", "peux", "pouvez",
		"merci", "bonjour", "plaît", "comment", "combien"},
	// German.
	{"der", "das", "dem", "ein", "eine", "einen", "einem", "einer", "und", "oder", "aber", "von",
		"zu", "zum", "zur", "im", "ins", "auf", "aus", "bei", "nach", "für", "über", "um", "ist", "sind",
		"wie", "wo", "wann", "warum", "ich", "du", "er", "sie", "wir", "ihr", "mein", "meine", "nicht",
		"kein", "keine", "auch", "noch", "nur", "sehr", "bitte", "möchte", "kann", "können", "gibt",
		"mir", "mich", "hallo", "danke"},
	// Portuguese.
	{"os", "um", "uma", "uns", "umas", "do", "da", "dos", "das", "em", "na", "nos", "nas", "pelo",
		"pela", "sem", "que", "é", "são", "eu", "você", "ele", "ela", "meu", "minha", "seu",
		"sua", "não", "mais", "muito", "onde", "quando", "qual", "quero", "preciso", "obrigado",
		"obrigada", "olá"},
	// Italian.
	{"il", "gli", "di", "della", "dei", "dal", "nel", "nella", "sul", "per", "tra", "fra",
		"ed", "che", "non", "più", "molto", "quale", "cosa", "io", "lui", "lei", "noi",
		"voi", "mio", "mia", "vorrei", "voglio", "posso", "puoi", "grazie", "ciao", "favore"},
	// Japanese particles and copulas, alone or as the pair a run gives.
	{"の", "は", "が", "を", "に", "へ", "と", "で", "も", "や", "か", "ね", "よ", "から", "まで",
		"より", "など", "ので", "のに", "には", "では", "とは", "への", "での", "との", "ても", "です", "ます"},
	// Chinese particles and pronouns.
	{"的", "了", "吗", "呢", "吧", "和", "与", "或", "在", "是", "把", "被", "也", "都", "请", "我",
		"你", "他", "她", "什么", "怎么", "一下", "我的", "请问"},
	// Korean particles.
	{"은", "는", "이", "가", "을", "를", "에", "의", "도", "로", "와", "과", "에서", "으로", "까지", "부터"},
}

// Some function words of Spanish, French, German, Portuguese and Italian
// are English words too, or abbreviations English text uses ("comment",
// "os", "io", "per", "la", "en", "un", "du"): such a word is a frame word
// only in a request in that language, one that holds at least two words of
// the language's list or its evidenceWords (which tell the language
// without being dropped) and no more English stop words than that. "o a
// os" and "der die das" are in their languages and find nothing, while "os
// version" keeps the os it asks about, "search comments" its comments and
// "which os am I on" its os: an English request never loses an English
// word because another language has it as an article or a pronoun. The
// other function words of those languages, the English framing words and
// the particles of unspaced scripts are frame words in every request.
const (
	langEnglish  = 0 // frameWordLists[0], a frame word in every request
	firstWritten = 1 // the lists of Spanish to Italian, by request language
	lastWritten  = 5
	minLangWords = 2
)

// englishToo are the function words of frameWordLists that are English
// words or abbreviations too, frame words only in a request in their
// language ([requestLangs]).
var englishToo = []string{
	"comment", "os", "io", "per", "la", "es", "en", "un", "con", "pour", "du", "ist", "em", "favor",
	"dos", "des", "et", "ce", "il", "ma", "na", "da", "sa", "ta", "tu", "um", "ed", "le", "lo", "no",
	"me", "te", "se", "ne", "ou", "al", "el", "er", "im", "sem", "dem",
}

// evidenceWords are words that tell a request's language without being
// frame words themselves (they are content words or single letters that
// tools use), by list.
var evidenceWords = [lastWritten + 1][]string{
	1: {"y", "o"},
	3: {"die", "den", "mit", "man", "war", "hat"},
	4: {"o", "e"},
	5: {"e", "o"},
}

// frameLangs is a set of frameWordLists, a bit per list.
type frameLangs uint16

// everyLang holds every list: the frame words of a catalog's side.
const everyLang = frameLangs(1)<<len(frameWordLists) - 1

// alwaysLangs are the lists whose words are frame words in every request.
var alwaysLangs = func() frameLangs {
	var l frameLangs
	for i := range frameWordLists {
		if i < firstWritten || i > lastWritten {
			l |= 1 << i
		}
	}
	return l
}()

// frameTerms are the frame words as [Terms] gives them (stemmed,
// lower-cased), each with the lists it is in.
var frameTerms = func() map[string]frameLangs {
	terms := make(map[string]frameLangs)
	for i, list := range frameWordLists {
		for _, w := range list {
			for _, t := range Terms(w) {
				terms[t] |= 1 << i
			}
		}
	}
	return terms
}()

// langWords are the words, lower-cased and unstemmed, that count for a
// request's language: the words of the lists of Spanish to Italian and
// their evidenceWords, each with its lists.
var langWords = func() map[string]frameLangs {
	words := make(map[string]frameLangs)
	for i := firstWritten; i <= lastWritten; i++ {
		for _, w := range append(slices.Clone(frameWordLists[i]), evidenceWords[i]...) {
			words[strings.ToLower(w)] |= 1 << i
		}
	}
	return words
}()

// ambiguousTerms are the terms of englishToo.
var ambiguousTerms = func() map[string]bool {
	terms := make(map[string]bool)
	for _, w := range englishToo {
		for _, t := range Terms(w) {
			terms[t] = true
		}
	}
	return terms
}()

// isFrameTerm reports whether a term, as [Terms] gives it, is a frame word
// in some request: catalog words that are never searched as prefixes.
func isFrameTerm(term []byte) bool {
	return frameTerms[string(term)] != 0
}

// isAlwaysFrameTerm reports whether a term is a frame word in every
// request: a word of the catalog that no query word stands for (as a
// prefix, a typing error or a part of a joined word).
func isAlwaysFrameTerm(term []byte) bool {
	return isFrameTermIn(term, alwaysLangs)
}

// isFrameTermIn reports whether a query term is a frame word of a request
// in langs ([requestLangs]): it finds no tool and adds to no score.
func isFrameTermIn(term []byte, langs frameLangs) bool {
	in := frameTerms[string(term)]
	switch {
	case in == 0:
		return false
	case in&alwaysLangs != 0 || !ambiguousTerms[string(term)]:
		return true
	}
	return in&langs != 0
}

// requestLangs returns the lists whose words of englishToo are frame words
// in query: the lists of every request, and the languages of Spanish to
// Italian that it holds at least minLangWords words of, and at least as
// many as it holds English stop words. It scans query with s.
func requestLangs(s *scanner, query string) frameLangs {
	var count [lastWritten + 1]int
	english := 0
	s.reset(query)
	for s.word() {
		if isStopWord(s.term) {
			english++
		}
		langs := langWords[string(s.term)]
		for i := firstWritten; langs != 0 && i <= lastWritten; i++ {
			if langs&(1<<i) != 0 {
				count[i]++
			}
		}
	}
	langs := alwaysLangs
	for i := firstWritten; i <= lastWritten; i++ {
		if count[i] >= minLangWords && count[i] >= english {
			langs |= 1 << i
		}
	}
	return langs
}

// Searchable reports whether query has a word that can find a tool by
// search: a word that is neither a stop word nor a frame word of the
// request. A query that is not searchable finds only the tools it names
// exactly; discovery says so when it finds nothing.
func Searchable(query string) bool {
	var s scanner
	langs := requestLangs(&s, query)
	s.reset(query)
	for s.next() {
		if !isFrameTermIn(s.term, langs) {
			return true
		}
	}
	return false
}
