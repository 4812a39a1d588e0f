package toolsearch

import (
	"slices"
	"testing"
)

// prefixCatalog is tools whose words begin with words that no tool has.
func prefixCatalog() []Document {
	return []Document{
		{Name: "fahrenheit_to_celsius", Description: "Convert a temperature in Fahrenheit to Celsius."},
		{Name: "dartfx_help", Description: "Show the manual of the charting library."},
		{Name: "get_invention", Description: "Look up an invention by name."},
		{Name: "inventory_check", Description: "Count the stock of an item."},
		{Name: "greeting", Description: "Say hello."},
		{Name: "bank_teller", Description: "Reach a cashier."},
		{Name: "weatherman", Description: "Book a presenter."},
		{Name: "weather", Description: "Report conditions in a city."},
		{Name: "compute", Description: "Work out a sum."},
		{Name: "company", Description: "Describe a firm."},
		{Name: "compile", Description: "Build a program."},
		{Name: "compress", Description: "Shrink a file."},
		{Name: "compare", Description: "Rank two offers."},
		{Name: "abc123", Description: "A versioned tool."},
	}
}

func TestSearchWordsNoToolHas(t *testing.T) {
	ix := mustIndex(t, prefixCatalog())
	tests := []struct {
		name, query string
		want        []string
	}{
		{"a word begins one term", "fahr to celsius", []string{"fahrenheit_to_celsius"}},
		{"alone it finds the tools of its terms", "fahr", []string{"fahrenheit_to_celsius"}},
		{"a name's start", "dart", []string{"dartfx_help"}},
		{"a stem begins two terms", "who invented it", []string{"get_invention", "inventory_check"}},
		{"a word that begins five terms stands for none", "comp", nil},
		{"four letters at least", "fah", nil},
		{"a word a tool has stands only for itself", "weather", []string{"weather", "fahrenheit_to_celsius"}}, // not weatherman; the other by temperature, a word of the topic
		{"request words are not what a word stands for", "hell", nil},
		{"a word with a digit stands for nothing", "abc1", nil},
		{"a request word stands for nothing", "tell", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := names(ix.Search(tt.query, 10)); !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("Search(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

// TestSearchPrefixWeight checks that a word no tool has scores prefixWeight
// of the term it stands for, and that a term the query has itself keeps its
// own weight when a word also stands for it.
func TestSearchPrefixWeight(t *testing.T) {
	ix := mustIndex(t, prefixCatalog())
	score := func(query string) float64 {
		t.Helper()
		got := ix.Search(query, 1)
		if len(got) != 1 || got[0].Name != "fahrenheit_to_celsius" {
			t.Fatalf("Search(%q) = %v, want fahrenheit_to_celsius first", query, got)
		}
		return got[0].Score
	}
	full := score("fahrenheit")
	if got, want := score("fahr"), float64(float32(prefixWeight*float32(full))); got != want {
		t.Errorf("score of fahr = %v, want %v (%v of fahrenheit's %v)", got, want, prefixWeight, full)
	}
	if got := score("fahr fahrenheit"); got != full {
		t.Errorf("score of fahr fahrenheit = %v, want fahrenheit's %v", got, full)
	}
	if got := score("fahrenheit fahr"); got != full {
		t.Errorf("score of fahrenheit fahr = %v, want fahrenheit's %v", got, full)
	}
}

func TestSearchPrefixAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector allocates")
	}
	ix := mustIndex(t, prefixCatalog())
	dst := make([]Result, 0, 5)
	ix.AppendSearch(dst, "who invented the fahr scale", 5)
	if n := testing.AllocsPerRun(20, func() { ix.AppendSearch(dst[:0], "who invented the fahr scale", 5) }); n != 0 {
		t.Errorf("AppendSearch with words no tool has allocates %v times, want 0", n)
	}
}

// TestLeadingBytesOrder checks that the leading bytes of terms sort as the
// terms do, which the narrowing of a search for a word's start relies on.
func TestLeadingBytesOrder(t *testing.T) {
	terms := []string{"a", "ab", "abc", "abcd", "abcda", "abcdz", "abce", "abd", "b", "zzzz", "zzzzz", "é", "éa", "天気"}
	for i, a := range terms {
		for _, b := range terms[i+1:] {
			if leadingBytes(a) > leadingBytes(b) {
				t.Errorf("leadingBytes(%q) = %#x > leadingBytes(%q) = %#x", a, leadingBytes(a), b, leadingBytes(b))
			}
		}
		if got := leadingBytes([]byte(a)); got != leadingBytes(a) {
			t.Errorf("leadingBytes of %q as bytes = %#x, as a string %#x", a, got, leadingBytes(a))
		}
	}
}

// TestSearchWordStartsShareLeadingBytes checks a word's terms among many
// that share its first four letters.
func TestSearchWordStartsShareLeadingBytes(t *testing.T) {
	var docs []Document
	for _, w := range []string{"abcdaa", "abcdab", "abcdba", "abcdbb", "abcdbc", "abcfa", "abcdzz"} {
		docs = append(docs, Document{Name: w, Description: w})
	}
	ix := mustIndex(t, docs)
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"abcda", []string{"abcdaa", "abcdab"}},
		{"abcdb", []string{"abcdba", "abcdbb", "abcdbc"}},
		{"abcdz", []string{"abcdzz"}},
		{"abcf", []string{"abcfa"}},
		{"abcd", nil}, // begins six terms
		{"abcg", nil},
	} {
		got := names(ix.Search(tt.query, 10))
		slices.Sort(got)
		if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("Search(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}
