package toolsearch

import (
	"fmt"
	"slices"
	"testing"
)

// TestCommonWordsFillTheLimit checks that a request that shares a content
// word with five tools or more gets up to the limit: the tools its rarer
// words find first, in their order and with their scores, then those its
// common words find.
func TestCommonWordsFillTheLimit(t *testing.T) {
	// A pooled catalog where one server dominates: its "project" is in
	// more than a fifth of the tools, but is plane's own word.
	var docs []Document
	for _, w := range []string{"labels", "states", "members", "milestones", "cycles", "modules"} {
		docs = append(docs, Document{Name: "plane.list_" + w, Description: fmt.Sprintf("List the %s of a project.", w)})
	}
	docs = append(docs,
		Document{Name: "plane.get_projects", Description: "Get the projects of the workspace."},
		Document{Name: "plane.create_project", Description: "Create a project."},
		Document{Name: "wiki.search", Description: "Search the wiki for pages."},
		Document{Name: "wiki.get_page", Description: "Get a page's HTML."},
		Document{Name: "browser.open", Description: "Open a URL in the browser; the page is shown."},
	)
	ix := mustIndex(t, docs)
	tests := []struct {
		query string
		limit int
		want  []string // the whole ranking
	}{
		// "project", plane's own word, finds plane's tools as "show"
		// finds the browser's "shown" ([TestDominantServer]).
		{"show all issues in the project", 5, []string{"plane.create_project", "plane.get_projects", "browser.open", "plane.list_labels", "plane.list_states"}},
		{"projects of the workspace", 3, []string{"plane.get_projects", "plane.create_project", "plane.list_labels"}},
		// "wiki" names the wiki server ([TestServerNamedInRequest]).
		{"wiki page", 5, []string{"wiki.search", "wiki.get_page", "browser.open"}},
	}
	for _, tt := range tests {
		got := ix.Search(tt.query, tt.limit)
		if !slices.Equal(names(got), tt.want) {
			t.Errorf("Search(%q, %d) = %q, want %q", tt.query, tt.limit, names(got), tt.want)
		}
		if want := referenceSearch(ix, tt.query, tt.limit); !slices.Equal(got, want) {
			t.Errorf("Search(%q, %d) = %v, the reference ranks %v", tt.query, tt.limit, got, want)
		}
	}
}
