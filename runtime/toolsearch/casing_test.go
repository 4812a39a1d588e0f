package toolsearch

import (
	"slices"
	"testing"
)

// TestCasingFindsEverySpelling checks that a word written in a description
// with capitals inside it ("JavaScript", "GitHub", "PostgreSQL", "OAuth", a
// camelCase identifier) is found by the word typed in lower case, even when
// other tools spell it in lower case (so that the query's word is a known
// term), and still by its parts and by its own spelling.
func TestCasingFindsEverySpelling(t *testing.T) {
	docs := []Document{
		{Name: "browser.evaluate", Description: "Run JavaScript in the page and return its result."},
		{Name: "lint.check", Description: "Lint javascript and typescript files."},
		{Name: "compiler.build", Description: "Compile a TypeScript project."},
		{Name: "repos.clone", Description: "Clone a repository from GitHub."},
		{Name: "mirror.sync", Description: "Sync a mirror of a github organization."},
		{Name: "db.query", Description: "Run a read-only query on PostgreSQL."},
		{Name: "db.list_databases", Description: "List postgresql databases on the host."},
		{Name: "auth.login", Description: "Sign in with OAuth and store the token."},
		{Name: "auth.oauth_clients", Description: "List the oauth clients."},
		{Name: "crm.search", Description: "Search objects; set objectType to the kind of object."},
		{Name: "crm.types", Description: "List every objecttype the account defines."},
		{Name: "weather.forecast", Description: "Get the weather forecast for a city."},
	}
	ix := mustIndex(t, docs)
	tests := []struct {
		query string
		want  []string // each among the results
	}{
		{"javascript", []string{"browser.evaluate", "lint.check"}},
		{"JavaScript", []string{"browser.evaluate", "lint.check"}},
		{"Javascript", []string{"browser.evaluate", "lint.check"}},
		{"java script", []string{"browser.evaluate"}},
		{"typescript", []string{"compiler.build", "lint.check"}},
		{"github", []string{"repos.clone", "mirror.sync"}},
		{"GITHUB", []string{"repos.clone", "mirror.sync"}},
		{"postgresql", []string{"db.query", "db.list_databases"}},
		{"oauth", []string{"auth.login", "auth.oauth_clients"}},
		{"objecttype", []string{"crm.search", "crm.types"}},
		{"object type", []string{"crm.search"}},
	}
	for _, tt := range tests {
		got := names(ix.Search(tt.query, 5))
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Search(%q) = %q, want %s among them", tt.query, got, w)
			}
		}
		if want := referenceSearch(ix, tt.query, 5); !slices.Equal(ix.Search(tt.query, 5), want) {
			t.Errorf("Search(%q) = %v, the reference ranks %v", tt.query, ix.Search(tt.query, 5), want)
		}
	}
}
