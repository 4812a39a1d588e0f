package toolsearch

import "testing"

// TestRequestWordsAreStemmed checks that every request word is listed as the
// analyzer gives it, so that the list matches query terms.
func TestRequestWordsAreStemmed(t *testing.T) {
	for _, w := range []string{"please", "kindly", "want", "wants", "needed", "like", "tell", "know", "help", "helping",
		"hi", "hello", "hey", "thank", "thanks", "may", "might", "must", "shall", "let", "wonder", "also"} {
		terms := Terms(w)
		if len(terms) != 1 || !isRequestWord([]byte(terms[0])) {
			t.Errorf("Terms(%q) = %q, not a request word", w, terms)
		}
	}
	for _, w := range []string{"weather", "record", "list", "get"} {
		if isRequestWord([]byte(Terms(w)[0])) {
			t.Errorf("%q is a request word", w)
		}
	}
}
