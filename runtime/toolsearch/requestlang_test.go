package toolsearch

import (
	"slices"
	"testing"
)

// englishWordsCatalog holds English words that other languages use as
// function words.
func englishWordsCatalog() []Document {
	return []Document{
		{Name: "add_issue_comment", Description: "Add a comment to an issue."},
		{Name: "get_os_info", Description: "Get the operating system's name, platform and version."},
		{Name: "disk_io_stats", Description: "Read the disk io statistics of a host."},
		{Name: "price_per_unit", Description: "Compute the price per unit of a product."},
		{Name: "list_users", Description: "List the users of the workspace."},
	}
}

// TestFrameWordsByRequestLanguage checks that a function word of another
// language that is an English word too is dropped only in a request in
// that language.
func TestFrameWordsByRequestLanguage(t *testing.T) {
	ix := mustIndex(t, englishWordsCatalog())
	tests := []struct {
		query      string
		want       string // the first tool; "" when nothing is found
		searchable bool
	}{
		{"comments", "add_issue_comment", true},
		{"search comments", "add_issue_comment", true},
		{"os version", "get_os_info", true},
		{"which os am I on", "get_os_info", true},
		{"os", "get_os_info", true},
		{"disk io", "disk_io_stats", true},
		{"price per unit", "price_per_unit", true},
		{"o a os", "", true}, // "o" and "die" are no frame words: they find tools that have them
		{"der die das", "", true},
		{"de la en", "", false},
		{"comment allez vous", "", true},
	}
	for _, tt := range tests {
		got := names(ix.Search(tt.query, 5))
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("Search(%q) = %v, want nothing", tt.query, got)
		case tt.want != "" && (len(got) == 0 || got[0] != tt.want):
			t.Errorf("Search(%q) = %v, want %s first", tt.query, got, tt.want)
		}
		if s := Searchable(tt.query); s != tt.searchable {
			t.Errorf("Searchable(%q) = %v, want %v", tt.query, s, tt.searchable)
		}
		if want := referenceSearch(ix, tt.query, 5); !slices.Equal(names(want), got) {
			t.Errorf("Search(%q) = %v, the reference ranks %v", tt.query, got, names(want))
		}
	}
}
