package toolsearch

import (
	"slices"
	"testing"
)

// TestServerNamedInRequest checks that a request word that names a server
// of a pool (its namespace, the prefix of its tools' names) raises that
// server's tools above tools of other servers that match the request's
// other words as well.
func TestServerNamedInRequest(t *testing.T) {
	docs := []Document{
		{Name: "fetch.fetch_html", Description: "Fetch a URL and return its HTML."},
		{Name: "fetch.fetch_markdown", Description: "Fetch a URL and convert its HTML to markdown."},
		{Name: "browser.get_content", Description: "Get the HTML content of the current page."},
		{Name: "browser.navigate", Description: "Navigate to a URL."},
		{Name: "scraper.scrape", Description: "Scrape a web page into markdown or HTML."},
		{Name: "scraper.extract", Description: "Extract structured data from HTML pages."},
		{Name: "scraper.crawl", Description: "Crawl a site and return the HTML of every page."},
		{Name: "wikipedia.search", Description: "Search Wikipedia for articles matching a query."},
		{Name: "wikipedia.get_article", Description: "Get the full content of a Wikipedia article."},
		{Name: "wikipedia.get_summary", Description: "Get a summary of a Wikipedia article."},
		{Name: "wikipedia.get_links", Description: "Get the links of a Wikipedia article."},
		{Name: "hubspot.hubspot-search-objects", Description: "Search CRM objects with filters."},
		{Name: "hubspot.hubspot-list-objects", Description: "List CRM objects of a type."},
		{Name: "crm.search_contacts", Description: "Search contacts by name or email."},
		{Name: "crm.list_contacts", Description: "List contacts."},
	}
	ix := mustIndex(t, docs)
	tests := []struct {
		query  string
		server string // whose tools rank first
		n      int    // how many of them
	}{
		{"summarize the html page about the Eiffel Tower based on Wikipedia", "wikipedia", 4},
		{"get the content of the page about Rome from wikipedia", "wikipedia", 3},
		{"search contacts in HubSpot", "hubspot", 2},
		{"list hubspot contacts", "hubspot", 2},
		// Without the server's name, the tools of the others that say
		// "html" rank first.
		{"summarize the html page about the Eiffel Tower", "browser", 1},
	}
	for _, tt := range tests {
		got := names(ix.Search(tt.query, 5))
		first := 0
		for first < len(got) && fleetServer(got[first]) == tt.server {
			first++
		}
		if first < tt.n {
			t.Errorf("Search(%q) = %q, want %d tools of %s first", tt.query, got, tt.n, tt.server)
		}
		if want := referenceSearch(ix, tt.query, 5); !slices.Equal(ix.Search(tt.query, 5), want) {
			t.Errorf("Search(%q) = %v, the reference ranks %v", tt.query, ix.Search(tt.query, 5), want)
		}
	}
}
