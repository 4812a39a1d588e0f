package toolsearch

import (
	"slices"
	"strings"
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

// TestServerNamedByPrefix checks that in a catalog without namespaces, whose
// tools are named SERVER_TOOL (as the portable names of an MCP gateway and
// many MCP servers are), a request word that is the first word of a
// server's tools' names raises that server's tools.
func TestServerNamedByPrefix(t *testing.T) {
	pooled := mustIndex(t, []Document{
		{Name: "fetch_html", Description: "Fetch a URL and return its HTML."},
		{Name: "fetch_markdown", Description: "Fetch a URL and convert its HTML to markdown."},
		{Name: "browser_get_content", Description: "Get the HTML content of the current page."},
		{Name: "browser_navigate", Description: "Navigate to a URL."},
		{Name: "scraper_scrape", Description: "Scrape a web page into markdown or HTML."},
		{Name: "scraper_extract", Description: "Extract structured data from HTML pages."},
		{Name: "scraper_crawl", Description: "Crawl a site and return the HTML of every page."},
		{Name: "wikipedia_search", Description: "Search Wikipedia for articles matching a query."},
		{Name: "wikipedia_get_article", Description: "Get the full content of a Wikipedia article."},
		{Name: "wikipedia_get_summary", Description: "Get a summary of a Wikipedia article."},
		{Name: "wikipedia_get_links", Description: "Get the links of a Wikipedia article."},
		{Name: "hubspot-search-objects", Description: "Search CRM objects with filters."},
		{Name: "hubspot-list-objects", Description: "List CRM objects of a type."},
		{Name: "crm_search_contacts", Description: "Search contacts by name or email."},
		{Name: "crm_list_contacts", Description: "List contacts."},
	})
	tests := []struct {
		ix     *Index
		query  string
		prefix string // whose tools rank first
		n      int    // how many of them
	}{
		{pooled, "summarize the html page about the Eiffel Tower based on Wikipedia", "wikipedia_", 4},
		{pooled, "get the content of the page about Rome from wikipedia", "wikipedia_", 3},
		{pooled, "search contacts in HubSpot", "hubspot-", 2},
		{pooled, "list hubspot contacts", "hubspot-", 2},
		{pooled, "summarize the html page about the Eiffel Tower", "browser_", 1},
	}
	for _, tt := range tests {
		got := names(tt.ix.Search(tt.query, 5))
		first := 0
		for first < len(got) && strings.HasPrefix(got[first], tt.prefix) {
			first++
		}
		if first < tt.n {
			t.Errorf("Search(%q) = %q, want %d tools named %s... first", tt.query, got, tt.n, tt.prefix)
		}
		if want := referenceSearch(tt.ix, tt.query, 5); !slices.Equal(tt.ix.Search(tt.query, 5), want) {
			t.Errorf("Search(%q) = %v, the reference ranks %v", tt.query, tt.ix.Search(tt.query, 5), want)
		}
	}
}

// TestServerNamedInSeveralWords checks that a server whose name has several
// words is named by them in order, typed apart or as the name is spelled
// ("google maps", "google_maps", "GoogleMaps"), in a pool of namespaces and
// in one of prefixes alike.
func TestServerNamedInSeveralWords(t *testing.T) {
	docs := []Document{
		{Name: "google_maps.maps_geocode", Description: "Convert an address into geographic coordinates."},
		{Name: "google_maps.maps_search_places", Description: "Search for places using a text query."},
		{Name: "google_maps.maps_directions", Description: "Get directions between two points."},
		{Name: "travel.search_places", Description: "Search places to visit in a city: museums, parks, restaurants."},
		{Name: "travel.plan_trip", Description: "Plan a trip with directions, places and hotels."},
		{Name: "travel.book_hotel", Description: "Book a hotel."},
		{Name: "search.web_search", Description: "Search the web with Google."},
		{Name: "search.image_search", Description: "Search images."},
		{Name: "charts.plot_maps", Description: "Plot data on maps of countries."},
		{Name: "charts.plot_bars", Description: "Plot a bar chart."},
	}
	portable := make([]Document, len(docs))
	for i, d := range docs {
		d.Name = strings.ReplaceAll(d.Name, ".", "_")
		portable[i] = d
	}
	for _, c := range []struct {
		name string
		ix   *Index
	}{{"namespaces", mustIndex(t, docs)}, {"prefixes", mustIndex(t, portable)}} {
		tests := []struct {
			query string
			n     int // how many tools of google_maps rank first
		}{
			{"find museums and parks in Rome with GoogleMaps", 2},
			{"find museums and parks in Rome using Google Maps", 2},
			{"find museums and parks in Rome using google_maps", 2},
		}
		for _, tt := range tests {
			got := names(c.ix.Search(tt.query, 5))
			first := 0
			for first < len(got) && strings.HasPrefix(got[first], "google_maps") {
				first++
			}
			if first < tt.n {
				t.Errorf("%s: Search(%q) = %q, want %d tools of google_maps first", c.name, tt.query, got, tt.n)
			}
			if want := referenceSearch(c.ix, tt.query, 5); !slices.Equal(c.ix.Search(tt.query, 5), want) {
				t.Errorf("%s: Search(%q) = %v, the reference ranks %v", c.name, tt.query, c.ix.Search(tt.query, 5), want)
			}
		}
	}
}

// TestFindServerNames checks which runs of words name a server of a catalog
// ([Index.findServerNames]).
func TestFindServerNames(t *testing.T) {
	doc := func(name string) Document { return Document{Name: name, Description: "Does " + name + "."} }
	tests := []struct {
		name  string
		tools []string
		want  []string // the runs, their terms joined by spaces, sorted
	}{
		{"namespaces", []string{"wikipedia.search", "wikipedia.get_article", "google_maps.geocode", "google_maps.directions", "scienceFacts.get_diameter", "scienceFacts.get_mass", "solo.tool"},
			[]string{"googl map", "scienc fact", "sciencefact", "wikipedia"}},
		{"prefixes", []string{"wikipedia_search", "wikipedia_get_article", "google_maps_geocode", "google_maps_directions", "hubspot-list-objects", "hubspot-get-object"},
			[]string{"googl", "googl map", "hubspot", "wikipedia"}},
		// A run that other tools have too names no server: "map" of
		// plot_maps; the words of a server's name are together.
		{"words of other tools", []string{"google_maps_geocode", "google_maps_directions", "plot_maps", "plot_bars", "google_search"},
			[]string{"googl", "googl map", "plot"}},
		// One server, or the whole catalog, is named by none.
		{"one server", []string{"github.create_issue", "github.list_issues"}, nil},
		{"one prefix", []string{"hubspot-list-objects", "hubspot-get-object"}, nil},
		// A few tools named alike among tools named otherwise: the word
		// says what they do ("reminders"), not a server; and a verb of
		// synonymGroups begins what tools do ("get").
		{"few prefixed", []string{"reminders_list", "reminders_delete", "get_alarms", "set_alarm", "get_weather", "convert_currency"}, nil},
		{"verbs", []string{"get_issue", "get_pull_request", "search_code", "search_issues", "create_issue", "create_pull_request", "merge_pull_request"}, nil},
		// A word of a namespace of several words alone names nothing.
		{"part of a namespace", []string{"euro_history.treaties", "euro_history.wars", "currency.convert", "currency.rates"},
			[]string{"currenci", "euro histori"}},
	}
	for _, tt := range tests {
		docs := make([]Document, len(tt.tools))
		for i, name := range tt.tools {
			docs[i] = doc(name)
		}
		ix := mustIndex(t, docs)
		var got []string
		for _, runs := range ix.serverNames {
			for _, run := range runs {
				words := make([]string, len(run))
				for i, term := range run {
					words[i] = ix.terms.keys[term]
				}
				got = append(got, strings.Join(words, " "))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: server names %q, want %q", tt.name, got, tt.want)
		}
	}
}
