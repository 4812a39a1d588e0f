package toolsearch

import "testing"

// TestFrameWords checks that the frame words of every language are listed
// as the analyzer gives them and that content words are not frame words.
func TestFrameWords(t *testing.T) {
	for _, c := range []struct {
		words []string
		frame bool
	}{
		{[]string{"please", "kindly", "want", "wants", "needed", "like", "tell", "know", "help", "helping",
			"hi", "hello", "hey", "thank", "thanks", "may", "might", "must", "shall", "let", "wonder", "also", "now"}, true},
		{[]string{"de", "la", "en", "para", "desde", "cómo", "dónde", "quiero"}, true},                                                                         // Spanish
		{[]string{"les", "pour", "avec", "où", "voudrais"}, true},                                                                                              // French
		{[]string{"der", "und", "für", "über", "bitte", "möchte"}, true},                                                                                       // German
		{[]string{"não", "você", "obrigado", "uma"}, true},                                                                                                     // Portuguese
		{[]string{"il", "della", "più", "vorrei", "grazie"}, true},                                                                                             // Italian
		{[]string{"から", "まで", "の", "を", "的", "什么", "에서", "는"}, true},                                                                                           // CJK particles
		{[]string{"weather", "record", "list", "get", "sin", "plus", "die", "war", "mi", "y", "San", "Dan", "com", "pod", "Dell", "EST", "dim", "dir"}, false}, // content, symbols
	} {
		for _, w := range c.words {
			terms := Terms(w)
			if len(terms) != 1 {
				t.Errorf("Terms(%q) = %q, want one term", w, terms)
				continue
			}
			if got := isFrameTerm([]byte(terms[0])); got != c.frame {
				t.Errorf("isFrameTerm(%q) = %v, want %v", terms[0], got, c.frame)
			}
			if got := referenceFrameWord(terms[0]); got != c.frame {
				t.Errorf("referenceFrameWord(%q) = %v, want %v", terms[0], got, c.frame)
			}
		}
	}
}

// TestSearchable checks which queries have a word that can find a tool.
func TestSearchable(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"", false},
		{"please help me", false},
		{"I want to know more", false},
		{"what's up now?", false},
		{"de la en", false},
		{"¿Dónde está?", false},
		{"から", false},
		{"の", false},
		{"trabajo de camarero en Madrid", true},
		{"weather", true},
		{"東京から", true},
	} {
		if got := Searchable(c.query); got != c.want {
			t.Errorf("Searchable(%q) = %v, want %v (terms %q)", c.query, got, c.want, Terms(c.query))
		}
	}
}
