package toolsearch

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

// frameTerms are the frame words as [Terms] gives them (stemmed, lower-cased).
var frameTerms = func() map[string]bool {
	terms := make(map[string]bool)
	for _, list := range frameWordLists {
		for _, w := range list {
			for _, t := range Terms(w) {
				terms[t] = true
			}
		}
	}
	return terms
}()

// isFrameTerm reports whether a query term, as [Terms] gives it, is a frame
// word: it finds no tool and adds to no score.
func isFrameTerm(term []byte) bool {
	return frameTerms[string(term)]
}

// Searchable reports whether query has a word that can find a tool by
// search: a word that is neither a stop word nor a frame word. A query that
// is not searchable finds only the tools it names exactly; discovery says so
// when it finds nothing.
func Searchable(query string) bool {
	var s scanner
	s.reset(query)
	for s.next() {
		if !isFrameTerm(s.term) {
			return true
		}
	}
	return false
}
