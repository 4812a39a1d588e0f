package toolsearch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomCatalog makes a catalog of tools from a small vocabulary, many of
// them alike but for their names (a tool's description and parameters
// copied under another name, of the same length or not), so that groups,
// group terms, tools' own terms, common words, synonyms, instances of a
// category, namespaces, terms with a digit and ties all occur; and
// queries over the same words, the tools' names and request words.
func randomCatalog(seed uint64) ([]Document, []string) {
	r := rand.New(rand.NewPCG(seed, seed>>32|1))
	vocab := []string{"weather", "city", "forecast", "convert", "unit", "currency", "email", "send", "image", "report",
		"print", "weekly", "record", "customer", "order", "refund", "github", "gitlab", "issue", "create",
		"find", "search", "locate", "get", "fetch", "retrieve", "book", "reserve", "v2", "2024", "date", "monday", "march"}
	words := func(n int) string {
		var w []string
		for range n {
			w = append(w, vocab[r.IntN(len(vocab))])
		}
		return strings.Join(w, " ")
	}
	n := 1 + r.IntN(120)
	docs := make([]Document, 0, n)
	for i := range n {
		var d Document
		if i > 0 && r.IntN(3) > 0 {
			d = docs[r.IntN(len(docs))] // alike but for the name
			d.Alias = ""
		} else {
			d.Description = words(r.IntN(6))
			if r.IntN(2) == 0 {
				d.Title = words(1 + r.IntN(2))
			}
			if r.IntN(2) == 0 {
				d.Parameters = []byte(fmt.Sprintf(`{"type":"object","properties":{%q:{"description":%q}}}`, vocab[r.IntN(len(vocab))], words(2)))
			}
			if r.IntN(4) == 0 {
				d.SearchTerms = []string{words(1)}
			}
		}
		d.Name = fmt.Sprintf("%s_%s_t%d", vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))], i)
		switch r.IntN(6) {
		case 0, 1:
			d.Name = fmt.Sprintf("%s.t%d", vocab[r.IntN(len(vocab))], i) // a shorter name
		case 2:
			d.Name = fmt.Sprintf("%s.%s.%s_t%d", vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))], i) // a longer namespace
		}
		if r.IntN(5) == 0 {
			d.Alias = "a" + d.Name
		}
		docs = append(docs, d)
	}
	var queries []string
	for range 40 {
		q := words(r.IntN(5))
		switch r.IntN(8) {
		case 0:
			q += " please help"
		case 1:
			q += " " + docs[r.IntN(n)].Name
		case 2:
			q += fmt.Sprintf(" t%d", r.IntN(n))
		case 3: // the start of a word, which no tool may have
			w := vocab[r.IntN(len(vocab))]
			q += " " + w[:min(len(w), 4+r.IntN(3))]
		case 4: // a possessive
			q += " " + vocab[r.IntN(len(vocab))] + "'s"
		}
		queries = append(queries, q)
	}
	return docs, queries
}

// checkRandomCatalog compares, on the random catalog of seed, both ways of
// building an index with the reference ranking; with prune, both indexes
// compute a floor for every search ([pruneAlways]).
func checkRandomCatalog(t *testing.T, seed uint64, prune bool) {
	docs, queries := randomCatalog(seed)
	fromDocs := mustIndex(t, docs)
	counts := make([]Counts, len(docs))
	for i, d := range docs {
		c, err := Count(d)
		if err != nil {
			t.Fatal(err)
		}
		counts[i] = c
	}
	fromCounts, err := NewIndex(NewCatalogCounts(counts))
	if err != nil {
		t.Fatal(err)
	}
	for _, ix := range []*Index{fromDocs, fromCounts} {
		if prune {
			pruneAlways(ix)
		}
		checkAgainstReference(t, ix, queries, []int{1, 3, 10})
	}
}

// TestSearchMatchesReferenceRandom is the property that searching through
// groups ranks exactly as scoring every tool does, over random catalogs.
func TestSearchMatchesReferenceRandom(t *testing.T) {
	for seed := range uint64(300) {
		checkRandomCatalog(t, seed, false)
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

func FuzzSearchMatchesReference(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, seed uint64, prune bool) {
		checkRandomCatalog(t, seed, prune)
	})
}

// TestGroupsOfAlikeTools checks which tools share a group: those alike but
// for the numbers in their names (copy1 and copy2, a trailing 2), with
// names of the same length. Tools whose names differ in a word do not:
// each server of a pool ("github", "gitlab") and each variant of a name
// ("fetch_issue" beside "get_issue") has its own group, so that no term of
// a name leaves members of a group to be ranked alone.
func TestGroupsOfAlikeTools(t *testing.T) {
	docs := []Document{
		{Name: "create_issue", Description: "Create an issue."},
		{Name: "copy1.create_issue", Description: "Create an issue."},
		{Name: "github.create_issue", Description: "Create an issue."}, // a namespace word
		{Name: "gitlab.create_issue", Description: "Create an issue."},
		{Name: "copy2.create_issue", Description: "Create an issue."},
		{Name: "create_issue_2", Description: "Create an issue."},         // a number in the name
		{Name: "make_issue", Description: "Create an issue."},             // another name word
		{Name: "jira_create_issue", Description: "Create a ticket."},      // another description
		{Name: "copy1.create_issue_now", Description: "Create an issue."}, // a longer name
		{Name: "copy1.list_issues"},                                       // nothing but a name
		{Name: "copy2.list_issues"},
		{Name: "v2"}, // nothing but a number
		{Name: "v3"},
	}
	ix := mustIndex(t, docs)
	ix.group()
	// The groups, whatever their numbers, in the order of their first
	// members.
	var groups [][]string
	for g := range int32(ix.groups.len()) {
		var names []string
		for _, tool := range ix.groups.membersOf(g) {
			names = append(names, docs[tool].Name)
		}
		groups = append(groups, names)
	}
	slices.SortFunc(groups, func(a, b []string) int {
		return slices.IndexFunc(docs, func(d Document) bool { return d.Name == a[0] }) -
			slices.IndexFunc(docs, func(d Document) bool { return d.Name == b[0] })
	})
	want := [][]string{{"create_issue", "copy1.create_issue", "copy2.create_issue", "create_issue_2"},
		{"github.create_issue"}, {"gitlab.create_issue"}, {"make_issue"}, {"jira_create_issue"},
		{"copy1.create_issue_now"}, {"copy1.list_issues", "copy2.list_issues"}, {"v2"}, {"v3"}}
	if fmt.Sprint(groups) != fmt.Sprint(want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	// "create" and "github" are groups'; "2" is of one tool of the first
	// group, and "copy1" of one tool there, of one beside
	// copy2.list_issues, and of the group of copy1.create_issue_now.
	for _, c := range []struct {
		term          string
		groups, tools int
	}{{"creat", 6, 0}, {"issu", 7, 0}, {"github", 1, 0}, {"copy1", 1, 2}, {"2", 0, 1}, {"list", 1, 0}} {
		id, ok := ix.terms.lookupString(c.term)
		if !ok {
			t.Fatalf("no term %q", c.term)
		}
		sc := ix.scoredTerm(id)
		if len(sc.groups) != c.groups || len(sc.tools) != c.tools {
			t.Errorf("term %q: %d groups and %d tools, want %d and %d", c.term, len(sc.groups), len(sc.tools), c.groups, c.tools)
		}
	}
	checkAgainstReference(t, ix, []string{"create issue", "github issue", "issues", "copy1 issue", "issue 2", "gitlab_create_issue issue", "v2"}, []int{1, 2, 13})
}

func TestGroupWords(t *testing.T) {
	for _, c := range []struct {
		name   string
		groups []int32
		scores []float32
		want   []groupWord
		maxes  []float32
	}{
		{name: "none", want: []groupWord{}, maxes: []float32{}},
		{
			name:   "one word",
			groups: []int32{0, 3, 63}, scores: []float32{1, 3, 2},
			want:  []groupWord{{index: 0, first: 0, mask: 1 | 1<<3 | 1<<63}},
			maxes: []float32{3},
		},
		{
			name:   "words apart",
			groups: []int32{5, 64, 70, 200}, scores: []float32{0.5, 2, 1.5, 4},
			want:  []groupWord{{index: 0, first: 0, mask: 1 << 5}, {index: 1, first: 1, mask: 1 | 1<<6}, {index: 3, first: 3, mask: 1 << 8}},
			maxes: []float32{0.5, 2, 4},
		},
		{
			name:   "highest last",
			groups: []int32{1, 2, 3}, scores: []float32{1, 2, 7},
			want:  []groupWord{{index: 0, first: 0, mask: 1<<1 | 1<<2 | 1<<3}},
			maxes: []float32{7},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			words, maxes := groupWords(c.groups, c.scores)
			if !slices.Equal(words, c.want) || !slices.Equal(maxes, c.maxes) {
				t.Errorf("groupWords(%v, %v) = %v, %v, want %v, %v", c.groups, c.scores, words, maxes, c.want, c.maxes)
			}
		})
	}
}

// TestFindGroup checks the position that findGroup finds for every group,
// present or not, against the groups themselves, over sets of every
// density, spread evenly or not.
func TestFindGroup(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 63, 64, 65, 1000, 10_000} {
		for _, density := range []float64{0, 0.001, 0.05, 0.5, 1} {
			for _, skewed := range []bool{false, true} {
				var groups []int32
				for g := range n {
					d := density
					if skewed && g > n/3 {
						d /= 50 // most groups in the first third
					}
					if r.Float64() < d {
						groups = append(groups, int32(g))
					}
				}
				words, _ := groupWords(groups, make([]float32, len(groups)))
				sc := &scoredTerm{groups: groups, words: words}
				for g := range int32(n) {
					wantAt, wantOK := searchInt32(groups, g)
					if at, ok := sc.findGroup(g, n); ok != wantOK || ok && at != wantAt {
						t.Fatalf("n %d density %v skewed %v: findGroup(%d) = %d, %v, want %d, %v", n, density, skewed, g, at, ok, wantAt, wantOK)
					}
				}
			}
		}
	}
}
