package toolsearch

// isStopWord reports whether a lower-cased word is an English function word
// (article, pronoun, preposition, conjunction, auxiliary verb) that carries no
// meaning for finding a tool. The list is general English; it knows nothing
// about any catalog.
func isStopWord(w []byte) bool {
	switch string(w) {
	case "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any",
		"are", "as", "at", "be", "because", "been", "before", "being", "below", "between",
		"both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during",
		"each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her",
		"here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into",
		"is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
		"not", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves",
		"out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that",
		"the", "their", "theirs", "them", "themselves", "then", "there", "these", "they",
		"this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we",
		"were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
		"with", "would", "you", "your", "yours", "yourself", "yourselves":
		return true
	}
	return false
}

// isRequestWord reports whether a query term, as [Terms] gives it, is a word
// that frames a request rather than says what it is about ("please", "can
// you help", "I want", "tell me", "I need to know"). Tools keep such words
// and a query of nothing else still finds them; in a query with other words
// they only add to the scores of the tools those words find, as common words
// do. The list is general English, written in stemmed form.
func isRequestWord(term []byte) bool {
	switch string(term) {
	case "pleas", "kindli", "want", "need", "lik", "tell", "know", "help", "hi", "hello", "hey",
		"thank", "may", "might", "must", "shall", "let", "wonder", "also":
		return true
	}
	return false
}
