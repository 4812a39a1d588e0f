package toolsearch

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTermWeight(t *testing.T) {
	tests := []struct {
		term string
		want float64
	}{
		{"weather", 1},
		{"52", valueTermWeight},
		{"sha256", valueTermWeight},
		{"v2", valueTermWeight},
		{"天気", 1},
	}
	for _, tt := range tests {
		if got := termWeight(tt.term); got != tt.want {
			t.Errorf("termWeight(%q) = %v, want %v", tt.term, got, tt.want)
		}
	}
}

// TestValueTermsCountHalf checks that a term with a digit adds half of what
// an otherwise equal word adds (its own field's length leaves it out), and
// that alone it still finds its tool.
func TestValueTermsCountHalf(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "hash", Description: "Hash text with sha256."},
		{Name: "draw", Description: "Draw circle."},
	})
	got := ix.Search("sha256 circle", 5)
	if len(got) != 2 || got[0].Name != "draw" || got[1].Name != "hash" {
		t.Fatalf("Search(sha256 circle) = %v, want draw then hash", got)
	}
	if ratio := got[1].Score / got[0].Score; math.Abs(ratio-valueTermWeight) > 1e-6 {
		t.Errorf("score of the value term over the word = %v, want %v", ratio, valueTermWeight)
	}
	if got := names(ix.Search("sha256", 5)); len(got) != 1 || got[0] != "hash" {
		t.Errorf("Search(sha256) = %v, want hash", got)
	}
}

// TestNameShare checks that a query holding a tool's whole name ranks it
// ahead of a tool whose name it holds in part, though that one's
// description matches one word more (without the name share it ranks
// first).
func TestNameShare(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "weather_report", Description: "Current weather in a city."},
		{Name: "current_weather", Description: "Current weather."},
		{Name: "city_guide", Description: "A guide to a city."},
		{Name: "news", Description: "News of the day."},
		{Name: "traffic", Description: "Road traffic."},
	})
	want := []string{"current_weather", "weather_report", "city_guide"}
	if got := names(ix.Search("current weather in the city", 5)); !slices.Equal(got, want) {
		t.Errorf("Search = %v, want %v", got, want)
	}
}

func TestFieldScalesNameWord(t *testing.T) {
	scales := fieldScales([][numFields]int64{{FieldName: 2, FieldDescription: 3}, {FieldDescription: 1}})
	if got, want := scales[0].nameWord, float32(nameShareWeight/2); got != want {
		t.Errorf("nameWord of a two-term name = %v, want %v", got, want)
	}
	if got := scales[1].nameWord; got != 0 {
		t.Errorf("nameWord of a tool without name terms = %v, want 0", got)
	}
}

// TestFieldScalesMatchReference checks the weights that fieldScales takes
// from its table of short lengths, and those it computes for longer ones,
// against the reference written out field by field, for lengths on both
// sides of the table's bound.
func TestFieldScalesMatchReference(t *testing.T) {
	for _, c := range []struct {
		name    string
		lengths [][numFields]int64
	}{
		{"empty fields", [][numFields]int64{{}, {FieldName: 1}}},
		{"at the bound", [][numFields]int64{
			{FieldName: scaleTableLen - 1, FieldDescription: scaleTableLen},
			{FieldName: scaleTableLen, FieldNamespace: 1, FieldParamDescription: scaleTableLen - 1},
			{FieldTitle: 1, FieldExtra: 2 * scaleTableLen, FieldParamName: 3},
		}},
		{"long fields", [][numFields]int64{
			{FieldName: 3, FieldDescription: 400, FieldParamDescription: 1000, FieldNamespace: 2},
			{FieldName: 60, FieldNamespace: 10, FieldDescription: 7},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, want := fieldScales(c.lengths), referenceScales(c.lengths)
			if !slices.Equal(got, want) {
				t.Errorf("fieldScales(%v) = %v, reference %v", c.lengths, got, want)
			}
		})
	}
}

// TestValueTermsOutOfLength checks that a term with a digit does not make
// its field longer: a version in a name costs the tool nothing, so the two
// tools tie and keep registration order.
func TestValueTermsOutOfLength(t *testing.T) {
	docs := []Document{
		{Name: "report_v2", Description: "Weekly report."},
		{Name: "report", Description: "Weekly report."},
		{Name: "weather", Description: "Weather forecast."},
	}
	for _, build := range []struct {
		name  string
		index func() (*Index, error)
	}{
		{"documents", func() (*Index, error) { return NewIndexFromDocuments(docs) }},
		{"counts", func() (*Index, error) {
			counts := make([]Counts, len(docs))
			for i, d := range docs {
				c, err := Count(d)
				if err != nil {
					return nil, err
				}
				counts[i] = c
			}
			return NewIndex(NewCatalogCounts(counts))
		}},
	} {
		ix, err := build.index()
		if err != nil {
			t.Fatal(err)
		}
		got := ix.Search("weekly report", 5)
		if len(got) != 2 || got[0].Name != "report_v2" || got[1].Name != "report" || got[0].Score != got[1].Score {
			t.Errorf("%s: Search(weekly report) = %v, want report_v2 and report with equal scores", build.name, got)
		}
	}
}

// TestNamespaceWeighsLess checks that a word of a dotted name's namespace
// counts in the namespace field, at half a name word's weight and with no
// name share, so that of two tools alike but for a dot in their names the
// one whose name itself holds the word ranks first, while the word after
// the dot ranks first the tool whose shorter name it is.
func TestNamespaceWeighsLess(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "math.area", Description: "Area of a shape."},
		{Name: "math_area", Description: "Area of a shape."},
		{Name: "weather", Description: "Weather forecast."},
	})
	got := ix.Search("math", 5)
	if want := []string{"math_area", "math.area"}; !slices.Equal(names(got), want) {
		t.Fatalf("Search(math) = %v, want %v", got, want)
	}
	if got[1].Fields != 1<<FieldNamespace {
		t.Errorf("Search(math)[1].Fields = %v, want namespace", got[1].Fields)
	}
	if got := names(ix.Search("area", 5)); !slices.Equal(got, []string{"math.area", "math_area"}) {
		t.Errorf("Search(area) = %v, want math.area then math_area", got)
	}
	if fieldWeight[FieldNamespace] != fieldWeight[FieldName]/2 {
		t.Errorf("namespace weight %v, want half the name's %v", fieldWeight[FieldNamespace], fieldWeight[FieldName])
	}
}

// TestLongDescriptionKeepsItsWords checks that a description many times the
// catalog's average discounts its words as one [maxDescriptionLength] times
// the average does: the tool whose long description holds three words of the
// request scores the same however long the description grows past that, in
// a catalog whose average length it does not change.
func TestLongDescriptionKeepsItsWords(t *testing.T) {
	filler := func(n int) string {
		words := make([]string, n)
		for i := range words {
			words[i] = "setup" + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
		}
		return strings.Join(words, " ")
	}
	const query = "Analyze sales.csv and show top customers"
	var scores []float64
	for _, extra := range []int{300, 600} {
		docs := []Document{
			{Name: "start_process", Description: "Start a terminal process for file analysis of a csv; shows its output. " + filler(extra)},
			{Name: "analyze_issue", Description: "Analyze an issue of a project."},
			{Name: "list_directory", Description: "List a directory; shows the top level."},
			{Name: "take_snapshot", Description: "Take a snapshot of the page."},
			{Name: "get_weather", Description: "Get the weather of a city."},
			{Name: "send_mail", Description: "Send a mail to a person."},
			{Name: "close_ticket", Description: "Close a ticket."},
			{Name: "play_song", Description: "Play a song."},
			// The same number of words in all: the average stays, and
			// start_process's description is over three times it.
			{Name: "notes", Description: filler(600 - extra)},
		}
		got := mustIndex(t, docs).Search(query, 5)
		i := slices.IndexFunc(got, func(r Result) bool { return r.Name == "start_process" })
		if i < 0 {
			t.Fatalf("description of %d more words: Search(%q) = %v, want start_process found", extra, query, got)
		}
		scores = append(scores, got[i].Score)
	}
	if scores[0] != scores[1] {
		t.Errorf("start_process scores %v with 300 more words and %v with 600, want equal", scores[0], scores[1])
	}
}
