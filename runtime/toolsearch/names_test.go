package toolsearch

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// nameWords splits a tool name into its words as a person reads them: at
// separators and at case changes ("Judge0_Extra_CE_Get_Languages" gives
// Judge0, Extra, CE, Get, Languages; "getHTTPStatus" gives get, HTTP,
// Status).
func nameWords(name string) []string {
	var words []string
	var word []rune
	runes := []rune(name)
	flush := func() {
		if len(word) > 0 {
			words = append(words, string(word))
			word = word[:0]
		}
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(word) > 0 && unicode.IsUpper(r) {
			prev := word[len(word)-1]
			next := rune(0)
			if i+1 < len(runes) {
				next = runes[i+1]
			}
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && unicode.IsLower(next) {
				flush()
			}
		}
		word = append(word, r)
	}
	flush()
	return words
}

// nameVariants are the ways a person types a tool's name, by kind.
var nameVariants = []struct {
	kind string
	of   func(name string) string
}{
	{"exact", func(n string) string { return n }},
	{"spaces for underscores", func(n string) string { return strings.ReplaceAll(n, "_", " ") }},
	{"lowercased", strings.ToLower},
	{"UPPERCASE", strings.ToUpper},
	{"camelCase", func(n string) string {
		var b strings.Builder
		for i, w := range nameWords(n) {
			w = strings.ToLower(w)
			if i > 0 {
				r, size := utf8.DecodeRuneInString(w)
				w = string(unicode.ToUpper(r)) + w[size:]
			}
			b.WriteString(w)
		}
		return b.String()
	}},
	{"kebab-case", func(n string) string { return strings.ToLower(strings.Join(nameWords(n), "-")) }},
	{"words", func(n string) string { return strings.Join(nameWords(n), " ") }},
}

// TestNameVariantsRankFirst checks that a query that is a tool's name up to
// case, separators and camelCase ranks that tool first, on the dev set's
// catalog of real tool names: at least 99.5% of the names for every way of
// typing them. A name typed so that it is also another tool's name typed
// the same way, or another tool's exact name (math.gcd and math_gcd are
// both "math gcd"; calculate_BMI lowercased is calculate_bmi), names both:
// one of them must rank first, and these are counted apart.
func TestNameVariantsRankFirst(t *testing.T) {
	docs, _ := loadDevSet(t)
	ix := mustIndex(t, docs)
	var queries []string
	for _, v := range nameVariants {
		byQuery := make(map[string][]string) // the tools each query names
		for _, d := range docs {
			q := v.of(d.Name)
			byQuery[q] = append(byQuery[q], d.Name)
		}
		first, ambiguous, missed := 0, 0, []string(nil)
		for _, d := range docs {
			q := v.of(d.Name)
			switch {
			case !testing.Short() && !raceDetector:
				queries = append(queries, q, "call "+q+" now", `use "`+q+`"`)
			case len(d.Name)%8 == 0: // an eighth or so, with -short or the race detector
				queries = append(queries, q)
			}
			named := byQuery[q]
			if q != d.Name && !slices.Contains(named, q) && slices.ContainsFunc(docs, func(o Document) bool { return o.Name == q }) {
				named = append(named, q)
			}
			r := ix.Search(q, 1)
			if len(named) > 1 {
				ambiguous++
				if len(r) != 1 || !slices.Contains(named, r[0].Name) {
					t.Errorf("%s: Search(%q) = %q, want one of %q", v.kind, q, names(r), named)
				}
				continue
			}
			if len(r) == 1 && r[0].Name == d.Name {
				first++
			} else if len(missed) < 5 {
				missed = append(missed, q+" -> "+strings.Join(names(r), ","))
			}
		}
		n := len(docs) - ambiguous
		rate := float64(first) / float64(n)
		t.Logf("%s: %d of %d first (%.2f%%), %d more named with another tool; missed %q", v.kind, first, n, 100*rate, ambiguous, missed)
		if rate < 0.995 {
			t.Errorf("%s: %.2f%% of names rank their tool first, want at least 99.5%%", v.kind, 100*rate)
		}
	}
	checkAgainstReference(t, ix, queries, []int{1, 5})
}

// TestNamesUpToCaseAndSeparators checks the order in which a query names
// tools: the whole query exactly, then spelled alike up to case and _ - and
// space, then folded, then a word of the query that is a name, then the
// others by score.
func TestNamesUpToCaseAndSeparators(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "Judge0_Extra_CE_Get_a_Language", Description: "Get a language of the Judge0 Extra CE."},
		{Name: "Judge0_Extra_CE_Get_Languages", Description: "Get the languages of the Judge0 Extra CE."},
		{Name: "BaseballApi_LeagueHomeTeamEvents", Description: "Home team events of a baseball league."},
		{Name: "math_gcd", Description: "Greatest common divisor of two integers."},
		{Name: "math.gcd", Description: "Compute the greatest common divisor."},
		{Name: "restaurant.find", Description: "Find a restaurant."},
		{Name: "vegan_restaurant.find_nearby", Description: "Find vegan restaurants nearby."},
		{Name: "help", Description: "Show what the assistant can do."},
		{Name: "get_weather", Description: "Current weather for a city."},
	})
	for _, c := range []struct {
		query string
		want  string // first
	}{
		{"judge0_extra_ce_get_languages", "Judge0_Extra_CE_Get_Languages"},
		{"JUDGE0 EXTRA CE GET LANGUAGES", "Judge0_Extra_CE_Get_Languages"},
		{"judge0ExtraCeGetALanguage", "Judge0_Extra_CE_Get_a_Language"},
		{"baseballapi_leaguehometeamevents", "BaseballApi_LeagueHomeTeamEvents"},
		{"baseball-api-league-home-team-events", "BaseballApi_LeagueHomeTeamEvents"},
		{"MATH.GCD", "math.gcd"},
		{"MATH_GCD", "math_gcd"},
		{"math gcd", "math_gcd"},
		{"vegan restaurant.find nearby", "vegan_restaurant.find_nearby"},
		{"Help", "help"},
		{"  Get-Weather ", "get_weather"},
		{"getWeather?", "get_weather"},
	} {
		r := ix.Search(c.query, 5)
		if len(r) == 0 || r[0].Name != c.want || !r[0].Exact {
			t.Errorf("Search(%q) = %v, want %s first and named", c.query, r, c.want)
		}
	}
	// A word of a sentence is not folded: "t-test" here is the test.
	ix = mustIndex(t, []Document{
		{Name: "t_test", Description: "One-sample test."},
		{Name: "two_sample_t_test", Description: "Two-sample t-test of two groups."},
	})
	if r := ix.Search("run a two-sample t-test of the groups", 5); len(r) == 0 || r[0].Name != "two_sample_t_test" || r[0].Exact {
		t.Errorf("Search of a sentence with t-test = %v, want two_sample_t_test first, not named", r)
	}
	checkAgainstReference(t, ix, []string{"T-Test", "t test", "two sample t test", "t_test"}, []int{1, 5})
}
