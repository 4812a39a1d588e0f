package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// testCatalog is a small catalog in registration order.
func testCatalog() []Document {
	return []Document{
		{Name: "records.lookup", Alias: "records_lookup", Description: "Look up a customer record by its id.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"Record identifier"}}}`)},
		{Name: "records.search", Description: "Search customer records by keywords.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"Keywords to match"}}}`)},
		{Name: "records.analyze", Description: "Analyze a set of customer records and summarize trends."},
		{Name: "weather.forecast", Title: "Weather forecast", Description: "Get the forecast for a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer"}}}`)},
		{Name: "email.send", Description: "Send an email message to a recipient, for example about the weather.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"subject":{"type":"string"},"body":{"type":"string"}}}`)},
		{Name: "files.list", Description: "List the files in a directory.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Directory path"}}}`)},
		{Name: "help", Description: "Show what the assistant can do."},
		{Name: "convert_currency", Description: "Convert an amount of money between currencies."},
		{Name: "convert_units", Description: "Convert a length between units."},
		{Name: "convert_temperature", Description: "Convert a temperature between units."},
		{Name: "image.resize", Description: "Resize an image.", SearchTerms: []string{"thumbnail", "scale"}},
	}
}

func mustIndex(t testing.TB, docs []Document) *Index {
	t.Helper()
	ix, err := NewIndexFromDocuments(docs)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func names(results []Result) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = r.Name
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	ix := mustIndex(t, testCatalog())
	tests := []struct {
		name  string
		query string
		limit int
		want  []string // the top of the ranking, in order
	}{
		{"name match outranks description match", "weather", 0, []string{"weather.forecast", "email.send"}},
		{"rare word outranks common word", "convert currencies", 0, []string{"convert_currency"}},
		{"word order does not matter", "currencies convert", 0, []string{"convert_currency"}},
		{"parameter names count", "city", 0, []string{"weather.forecast"}},
		{"extra search terms count", "make a thumbnail", 0, []string{"image.resize"}},
		{"stemmed forms meet", "searching records", 0, []string{"records.search"}},
		{"exact name wins over more matching words", "files.list the weather forecast for a city", 0,
			[]string{"files.list", "weather.forecast"}},
		{"exact name with a full stop after it", "run records.analyze.", 0, []string{"records.analyze"}},
		{"exact model-facing name", "call records_lookup with id 7", 0, []string{"records.lookup"}},
		{"one-word name alone is exact", "help", 0, []string{"help"}},
		{"one-word name in a sentence is a word", "help me get the weather forecast", 0, []string{"weather.forecast"}},
		{"quoted one-word name is exact", "call `help` about the weather forecast", 0, []string{"help", "weather.forecast"}},
		{"double-quoted one-word name is exact", `use "help" for the weather forecast`, 0, []string{"help", "weather.forecast"}},
		{"unpaired quote is no quoting", "use \"help for the weather forecast", 0, []string{"weather.forecast"}},
		{"shorter field of equal matches ranks first", "convert", 2, []string{"convert_units", "convert_temperature"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := names(ix.Search(tt.query, tt.limit))
			if len(got) < len(tt.want) || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Errorf("Search(%q) = %q, want it to start with %q", tt.query, got, tt.want)
			}
			if tt.limit > 0 && len(got) > tt.limit {
				t.Errorf("Search(%q, %d) returned %d results", tt.query, tt.limit, len(got))
			}
		})
	}
}

func TestSearchFindsNothing(t *testing.T) {
	ix := mustIndex(t, serviceCatalog())
	for _, q := range []string{"", "   ", "\t\n", ".*", "the of and", "unknownword", "unknown words only"} {
		if got := ix.Search(q, 10); len(got) != 0 {
			t.Errorf("Search(%q) = %q, want nothing", q, names(got))
		}
	}
}

// helpCatalog is tools of which some say "help".
func helpCatalog() []Document {
	return []Document{
		{Name: "help_desk", Description: "Open a help desk ticket."},
		{Name: "ask", Description: "Ask for help with a question."},
		{Name: "units", Description: "Convert between units."},
		{Name: "currency", Description: "Convert between currencies; help on rates."},
	}
}

// serviceCatalog is six tools that all say "service".
func serviceCatalog() []Document {
	return []Document{
		{Name: "a", Description: "Billing service invoices."},
		{Name: "b", Description: "Shipping service parcels."},
		{Name: "c", Description: "Weather service forecasts."},
		{Name: "d", Description: "Mail service letters."},
		{Name: "e", Description: "Search service pages."},
		{Name: "f", Description: "Chat service rooms."},
	}
}

// TestSearchCommonWords checks the common-word rule: a word in more than a
// fifth of the tools (and in five or more) finds tools only when the query's
// rarer words find none, and otherwise adds to the tools they find.
func TestSearchCommonWords(t *testing.T) {
	// "get" is in 6 of 20 tools (30%).
	var verbs []Document
	for i := range 20 {
		d := Document{Name: fmt.Sprintf("tool%d", i), Description: fmt.Sprintf("Handle topic%d records.", i)}
		if i%10 < 3 {
			d.Description = fmt.Sprintf("Get topic%d records.", i)
		}
		verbs = append(verbs, d)
	}
	verbs = append(verbs, Document{Name: "tool20", Description: "Delete topic2 entries."})
	// Nine tools with one description, as in a test fixture of a weather
	// domain: every word is in every tool.
	var weather []Document
	for i := range 9 {
		weather = append(weather, Document{Name: fmt.Sprintf("weather%d", i), Description: "Weather forecast."})
	}
	// A code-hosting toolset where most tools mention "repository".
	github := []Document{
		{Name: "create_issue", Description: "Create an issue in a repository."},
		{Name: "list_issues", Description: "List the issues of a repository."},
		{Name: "create_pull_request", Description: "Open a pull request in a repository."},
		{Name: "merge_pull_request", Description: "Merge a pull request of a repository."},
		{Name: "list_commits", Description: "List the commits of a repository branch."},
		{Name: "get_file_contents", Description: "Read a file from a repository."},
		{Name: "fork_repository", Description: "Fork a repository to an account."},
		{Name: "search_users", Description: "Search users by login."},
		{Name: "get_me", Description: "Get the authenticated user."},
	}
	tests := []struct {
		name    string
		catalog []Document
		query   string
		want    []string // the whole ranking, in order
	}{
		{"a common word alone finds its tools", serviceCatalog(), "service", []string{"a", "b", "c", "d", "e", "f"}},
		{"common and stop words alone find the tools", serviceCatalog(), "services for the", []string{"a", "b", "c", "d", "e", "f"}},
		{"a rarer word first, the common one fills the limit", serviceCatalog(), "weather service", []string{"c", "a", "b", "d", "e", "f"}},
		{"an unknown word leaves the common one to find", verbs, "please get it", []string{"tool0", "tool1", "tool2", "tool10", "tool11", "tool12"}},
		{"a rarer word decides which tools come first", verbs, "get topic2", []string{"tool2", "tool20", "tool0", "tool1", "tool10", "tool11", "tool12"}},
		{"the common word ranks the tools the rarer one found", verbs, "delete topic2", []string{"tool20", "tool2"}},
		{"every tool has the word", weather, "weather", []string{"weather0", "weather1", "weather2", "weather3", "weather4", "weather5", "weather6", "weather7", "weather8"}},
		{"every tool has both words", weather, "weather forecast for Paris", []string{"weather0", "weather1", "weather2", "weather3", "weather4", "weather5", "weather6", "weather7", "weather8"}},
		{"most tools mention it", github, "repository", []string{"fork_repository", "create_issue", "list_issues", "get_file_contents", "create_pull_request", "merge_pull_request", "list_commits"}},
		{"a rarer word first, the common one ranks the rest", github, "commits in the repository", []string{"list_commits", "fork_repository", "create_issue", "list_issues", "get_file_contents", "create_pull_request", "merge_pull_request"}},
		{"the common word's own tools after the rarer words'", github, "open issues of my repository", []string{"create_issue", "list_issues", "create_pull_request", "fork_repository", "get_file_contents", "merge_pull_request", "list_commits"}},
		{"request words alone find nothing", helpCatalog(), "please help", nil},
		{"request words add nothing to other words", helpCatalog(), "please help me convert", []string{"units", "currency"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := mustIndex(t, tt.catalog)
			if got := names(ix.Search(tt.query, 20)); !slices.Equal(got, tt.want) {
				t.Errorf("Search(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestSearchTiesKeepRegistrationOrder(t *testing.T) {
	var docs []Document
	for _, name := range []string{"zeta", "alpha", "mid", "beta", "omega", "gamma", "delta"} {
		docs = append(docs, Document{Name: name, Description: "Print a report."})
	}
	// Enough other tools that "report" (in 7) is not too common to search by.
	for i := range 30 {
		docs = append(docs, Document{Name: fmt.Sprintf("other%d", i), Description: "Unrelated."})
	}
	ix := mustIndex(t, docs)
	got := ix.Search("report", 7)
	if want := []string{"zeta", "alpha", "mid", "beta", "omega", "gamma", "delta"}; !slices.Equal(names(got), want) {
		t.Fatalf("Search(report) = %q, want registration order %q", names(got), want)
	}
	for _, r := range got[1:] {
		if r.Score != got[0].Score {
			t.Errorf("score of %s = %v, want the tie %v", r.Name, r.Score, got[0].Score)
		}
	}
}

func TestSearchDeterministic(t *testing.T) {
	// Two indexes of one catalog hash with different seeds; results must not
	// depend on it.
	a, b := mustIndex(t, testCatalog()), mustIndex(t, testCatalog())
	for _, q := range []string{"weather", "convert units", "records", "customer records trends", "files.list help"} {
		first := a.Search(q, 10)
		if again := a.Search(q, 10); !slices.Equal(first, again) {
			t.Errorf("Search(%q) twice: %v then %v", q, first, again)
		}
		if other := b.Search(q, 10); !slices.Equal(first, other) {
			t.Errorf("Search(%q) on two indexes: %v and %v", q, first, other)
		}
	}
}

func TestSearchResultFields(t *testing.T) {
	ix := mustIndex(t, testCatalog())
	got := ix.Search("weather city", 1)
	if len(got) != 1 {
		t.Fatalf("Search = %v, want one result", got)
	}
	r := got[0]
	want := FieldSet(1<<FieldNamespace | 1<<FieldTitle | 1<<FieldDescription | 1<<FieldParamName | 1<<FieldParamDescription)
	if r.Name != "weather.forecast" || r.Fields != want || r.Exact || r.Score <= 0 {
		t.Errorf("Search(weather city)[0] = %+v, want weather.forecast in fields %v, not exact, positive score", r, want)
	}
	exact := ix.Search("files.list", 1)
	if len(exact) != 1 || !exact[0].Exact || !exact[0].Fields.Has(FieldName) {
		t.Errorf("Search(files.list) = %+v, want an exact name match", exact)
	}
}

func TestSearchLimit(t *testing.T) {
	ix := mustIndex(t, testCatalog())
	for _, tt := range []struct{ limit, want int }{{0, DefaultLimit}, {-3, DefaultLimit}, {1, 1}, {6, 6}, {100, 10}} {
		// Every tool but help mentions one of these words.
		got := ix.Search("records weather convert image files", tt.limit)
		if len(got) != tt.want {
			t.Errorf("limit %d: %d results %q, want %d", tt.limit, len(got), names(got), tt.want)
		}
	}
}

func TestAppendSearchKeepsDst(t *testing.T) {
	ix := mustIndex(t, testCatalog())
	dst := []Result{{Name: "kept"}}
	got := ix.AppendSearch(dst, "weather", 2)
	if len(got) != 3 || got[0].Name != "kept" || got[1].Name != "weather.forecast" {
		t.Errorf("AppendSearch = %v", got)
	}
}

func TestLookup(t *testing.T) {
	ix := mustIndex(t, testCatalog())
	tests := []struct {
		name    string
		names   []string
		want    []string
		unknown bool
	}{
		{"in the order named", []string{"help", "files.list", "records.search"}, []string{"help", "files.list", "records.search"}, false},
		{"model-facing name", []string{"records_lookup"}, []string{"records.lookup"}, false},
		{"each tool once", []string{"help", "help", "records_lookup", "records.lookup"}, []string{"help", "records.lookup"}, false},
		{"none", nil, []string{}, false},
		{"unknown names", []string{"help", "nope", "Help"}, []string{"help"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ix.Lookup(tt.names...)
			if tt.unknown != errors.Is(err, ErrUnknownTool) || !tt.unknown && err != nil {
				t.Fatalf("Lookup(%q) error = %v, want unknown %v", tt.names, err, tt.unknown)
			}
			if !slices.Equal(names(got), tt.want) {
				t.Errorf("Lookup(%q) = %q, want %q", tt.names, names(got), tt.want)
			}
			for _, r := range got {
				if !r.Exact {
					t.Errorf("Lookup result %+v is not marked exact", r)
				}
			}
		})
	}
}

// TestSearchConcurrent searches a fresh index from many goroutines, so that
// first searches of a term (which score it, by group of tools alike) race,
// and expects the results of the same searches made one at a time on
// another index; on the test catalog and on one of tools alike but for
// their names.
func TestSearchConcurrent(t *testing.T) {
	var alike []Document
	for i := range 200 {
		alike = append(alike, Document{Name: fmt.Sprintf("%s_t%d", []string{"print", "mail"}[i%2], i), Description: []string{"Print a report.", "Mail a weekly report.", "Convert units."}[i%3]})
	}
	for _, c := range []struct {
		catalog []Document
		queries []string
	}{
		{testCatalog(), []string{"weather", "convert units", "customer records", "files.list", "help", "thumbnail"}},
		{alike, []string{"print report", "mail t7", "weekly report", "convert", "t12 t13 units", "mail_t9"}},
	} {
		queries := c.queries
		want := make([][]Result, len(queries))
		sequential := mustIndex(t, c.catalog)
		for i, q := range queries {
			want[i] = sequential.Search(q, 10)
		}
		ix := mustIndex(t, c.catalog)
		done := make(chan error)
		for g := range 8 {
			go func() {
				for i := range 200 {
					q := (g + i) % len(queries)
					if got := ix.Search(queries[q], 10); !slices.Equal(got, want[q]) {
						done <- fmt.Errorf("Search(%q) = %v, want %v", queries[q], got, want[q])
						return
					}
				}
				done <- nil
			}()
		}
		for range 8 {
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
	}
}

func TestZeroIndex(t *testing.T) {
	var ix Index
	if got := ix.Search("anything", 0); len(got) != 0 || ix.Len() != 0 {
		t.Errorf("zero Index: Search = %v, Len = %d", got, ix.Len())
	}
	if _, err := ix.Lookup("a"); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("zero Index: Lookup error = %v", err)
	}
}
