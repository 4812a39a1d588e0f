package toolsearch

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestSynonymGroupsAreStemmed checks that every word of the synonym groups is
// listed as the analyzer gives it, so that the groups match index terms.
func TestSynonymGroupsAreStemmed(t *testing.T) {
	words := [][]string{
		{"find", "search", "locate", "lookup", "discover"},
		{"get", "retrieve", "fetch", "obtain"},
		{"calculate", "compute", "determine"},
		{"create", "add", "make", "open"},
		{"book", "reserve"},
		{"issue", "bug"},
	}
	if len(words) != len(synonymGroups) {
		t.Fatalf("%d groups checked, %d listed", len(words), len(synonymGroups))
	}
	for i, g := range words {
		var want []string
		for _, w := range g {
			want = append(want, Terms(w)...)
		}
		if !slices.Equal(synonymGroups[i], want) {
			t.Errorf("group %d is %q, want %q as Terms gives %q", i, synonymGroups[i], want, g)
		}
	}
}

// TestSynonymPostings checks a term's scored postings: its own scores where
// the tool has it, a synonym's best score times synonymWeight where the tool
// has only synonyms, in tool order.
func TestSynonymPostings(t *testing.T) {
	desc := FieldCounts{Description: 1}
	ix, err := NewIndex(CatalogCounts{
		Tools: []CatalogTool{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}},
		Terms: []TermPostings{
			{Term: "find", Tools: []ToolTerm{{Tool: 1, Counts: desc}}},
			{Term: "search", Tools: []ToolTerm{{Tool: 0, Counts: desc}, {Tool: 1, Counts: desc}, {Tool: 2, Counts: FieldCounts{Name: 1}}}},
			{Term: "locat", Tools: []ToolTerm{{Tool: 2, Counts: desc}}},
			{Term: "weather", Tools: []ToolTerm{{Tool: 3, Counts: desc}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	own := func(term string, tool int32) float32 {
		id, _ := ix.terms.lookupString(term)
		for _, c := range ix.postings[id] {
			if c.Tool == tool {
				return termScore(ix.idf[id], &c.Counts, &ix.scales[tool])
			}
		}
		t.Fatalf("%q is not in tool %d", term, tool)
		return 0
	}
	find, _ := ix.terms.lookupString("find")
	// In tool 2, the rarer locat outscores search.
	if own("locat", 2) <= own("search", 2) {
		t.Fatalf("locat %v, search %v in tool 2", own("locat", 2), own("search", 2))
	}
	want := []posting{
		{tool: 0, score: synonymWeight * own("search", 0), fields: 1 << FieldDescription},
		{tool: 1, score: own("find", 1), fields: 1 << FieldDescription},
		{tool: 2, score: synonymWeight * own("locat", 2), fields: 1 << FieldDescription},
	}
	got := ix.termPostings(find, nil)
	if len(got) != len(want) {
		t.Fatalf("postings of find = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].tool != want[i].tool || got[i].fields != want[i].fields || math.Abs(float64(got[i].score-want[i].score)) > 1e-6 {
			t.Errorf("posting %d of find = %+v, want %+v", i, got[i], want[i])
		}
	}
	weather, _ := ix.terms.lookupString("weather")
	if got := ix.termPostings(weather, nil); len(got) != 1 || got[0].tool != 3 {
		t.Errorf("postings of weather = %v, want tool 3 alone", got)
	}
}

// TestSynonymsFindTools checks that a request to find a hotel ranks the tool
// that searches for hotels ahead of one that only mentions them.
func TestSynonymsFindTools(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "hotel_reviews", Description: "Reviews of a hotel by guests."},
		{Name: "hotel_search", Description: "Search for a hotel in a city."},
		{Name: "weather", Description: "Weather in a city."},
	})
	want := []string{"hotel_search", "hotel_reviews"}
	if got := names(ix.Search("find a hotel", 5)); !slices.Equal(got, want) {
		t.Errorf("Search(find a hotel) = %v, want %v", got, want)
	}
}

// TestCategoryInstancesAreStemmed checks that every category and instance of
// categoryInstances is listed as the analyzer gives it.
func TestCategoryInstancesAreStemmed(t *testing.T) {
	words := []struct {
		category  string
		instances []string
	}{
		{"date", slices.Concat([]string{
			"january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
			"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
			"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th", "13th", "14th", "15th", "16th",
			"17th", "18th", "19th", "20th", "21st", "22nd", "23rd", "24th", "25th", "26th", "27th", "28th", "29th", "30th", "31st",
		}, years(1900, 2099))},
	}
	if len(words) != len(categoryInstances) {
		t.Fatalf("%d categories checked, %d listed", len(words), len(categoryInstances))
	}
	for i, c := range words {
		if got, want := []string{categoryInstances[i].category}, Terms(c.category); !slices.Equal(got, want) {
			t.Errorf("category %d is %q, want %q", i, got, want)
		}
		var want []string
		for _, w := range c.instances {
			want = append(want, Terms(w)...)
		}
		if !slices.Equal(categoryInstances[i].instances, want) {
			t.Errorf("instances of %q are %q, want %q as Terms gives %q", c.category, categoryInstances[i].instances, want, c.instances)
		}
	}
}

// TestInstancesFindCategory checks that a request naming a day (of the
// week or of the month) or a year ranks the
// tool that takes a date ahead of one that does not, though that one's
// shorter description ranks it first without the instance, and that a
// day finds the tools of its category where they lack the day, at a quarter
// of the category's score; the category does not stand for the day.
func TestInstancesFindCategory(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "forecast", Description: "Weather forecast for a city on a given date."},
		{Name: "current", Description: "Weather in a city."},
		{Name: "calendar", Description: "Meetings on Monday."},
	})
	if got, want := names(ix.Search("weather in Paris on Friday", 5)), []string{"forecast", "current"}; !slices.Equal(got, want) {
		t.Errorf("Search(weather in Paris on Friday) = %v, want %v", got, want)
	}
	friday, date := ix.Search("friday", 5), ix.Search("date", 5)
	if len(friday) != 1 || friday[0].Name != "forecast" || len(date) != 1 || date[0].Name != "forecast" {
		t.Fatalf("Search(friday) = %v, Search(date) = %v, want forecast alone", friday, date)
	}
	if ratio := friday[0].Score / date[0].Score; math.Abs(ratio-synonymWeight) > 1e-6 {
		t.Errorf("score of friday over date = %v, want %v", ratio, synonymWeight)
	}
	if got, want := names(ix.Search("monday", 5)), []string{"calendar", "forecast"}; !slices.Equal(got, want) {
		t.Errorf("Search(monday) = %v, want %v", got, want)
	}
	for _, q := range []string{"on the 5th", "in 1999", "2024 weather"} {
		if got := ix.Search(q, 5); len(got) == 0 || got[0].Name != "forecast" {
			t.Errorf("Search(%s) = %v, want forecast first", q, got)
		}
	}
}

// years returns the years from first to last, as words.
func years(first, last int) []string {
	var ys []string
	for y := first; y <= last; y++ {
		ys = append(ys, fmt.Sprint(y))
	}
	return ys
}
