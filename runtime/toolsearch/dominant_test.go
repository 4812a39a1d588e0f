package toolsearch

import (
	"slices"
	"testing"
)

// dominantPool is a catalog pooled from a project tracker that contributes
// most of its tools, whose domain words ("project", "issue") are in most
// of them, and smaller servers whose tools mostly get things.
func dominantPool() (pool, tracker []Document) {
	tracker = []Document{
		{Name: "plane.get_projects", Description: "Get all projects in the workspace."},
		{Name: "plane.create_project", Description: "Create a new project in the workspace."},
		{Name: "plane.list_states", Description: "List all states of a project."},
		{Name: "plane.list_labels", Description: "List all labels of a project."},
		{Name: "plane.list_members", Description: "List the members of a project."},
		{Name: "plane.get_cycles", Description: "Get the cycles of a project."},
		{Name: "plane.get_modules", Description: "Get the modules of a project."},
		{Name: "plane.get_project_issues", Description: "Get the issues of a project."},
		{Name: "plane.create_issue", Description: "Create an issue in a project."},
		{Name: "plane.get_issue", Description: "Get an issue of a project by its sequence id."},
		{Name: "plane.update_issue", Description: "Update an issue of a project."},
		{Name: "plane.add_issue_comment", Description: "Add a comment to an issue of a project."},
	}
	others := []Document{
		{Name: "wiki.search", Description: "Search Wikipedia for articles."},
		{Name: "wiki.get_page", Description: "Get the HTML of a Wikipedia page."},
		{Name: "browser.open", Description: "Open a URL in the browser; the page is shown."},
		{Name: "browser.screenshot", Description: "Take a screenshot of the page."},
		{Name: "browser.click", Description: "Click an element of the page."},
		{Name: "maps.geocode", Description: "Get the coordinates of an address."},
		{Name: "maps.directions", Description: "Get directions between two places."},
		{Name: "maps.nearby", Description: "Search for places near a location."},
		{Name: "chat.list_channels", Description: "List the channels of the workspace."},
		{Name: "chat.post_message", Description: "Post a message to a channel."},
		{Name: "chat.get_thread", Description: "Get the replies of a thread."},
		{Name: "clock.now", Description: "Get the current time in a time zone."},
		{Name: "clock.convert", Description: "Convert a time between time zones."},
		{Name: "weather.forecast", Description: "Get the weather forecast for a city."},
		{Name: "weather.alerts", Description: "Get the weather alerts of a region."},
		{Name: "fetch.url", Description: "Fetch a URL as markdown."},
		{Name: "files.read", Description: "Read a file."},
		{Name: "files.write", Description: "Write a file."},
		{Name: "files.list_directory", Description: "List the entries of a directory."},
		{Name: "files.get_info", Description: "Get the size and dates of a file."},
		{Name: "mail.send", Description: "Send an email."},
		{Name: "mail.list_folders", Description: "List the mail folders."},
		{Name: "mail.get_inbox", Description: "Get the messages of the inbox."},
		{Name: "calendar.list_calendars", Description: "List the calendars of the account."},
		{Name: "calendar.get_events", Description: "Get the events of a day."},
		{Name: "calendar.create_event", Description: "Create an event."},
		{Name: "k8s.list_pods", Description: "List the pods of a namespace."},
		{Name: "k8s.scale", Description: "Scale a deployment."},
		{Name: "k8s.logs", Description: "Get the logs of a pod."},
		{Name: "db.query", Description: "Run a read-only SQL query."},
	}
	return append(slices.Clone(tracker), others...), tracker
}

// TestDominantServer checks that in a pool where one server contributes
// most tools, its words ("project", "issue", in most of its tools) find
// its tools as they do on the server alone, and that a request that shares
// a word with five tools or more gets up to the limit.
func TestDominantServer(t *testing.T) {
	pool, tracker := dominantPool()
	pooled, alone := mustIndex(t, pool), mustIndex(t, tracker)
	tests := []struct {
		query string
		want  []string // each among the top 5 of the pool and of the server alone
	}{
		{"list projects", []string{"plane.get_projects"}},
		{"show all issues in the project", []string{"plane.get_project_issues"}},
		{"comment on an issue", []string{"plane.add_issue_comment"}},
		{"projects of the workspace", []string{"plane.get_projects", "plane.create_project"}},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			name string
			ix   *Index
		}{{"pool", pooled}, {"server alone", alone}} {
			got := c.ix.Search(tt.query, 5)
			for _, w := range tt.want {
				if !slices.Contains(names(got), w) {
					t.Errorf("%s: Search(%q) = %q, want %s among them", c.name, tt.query, names(got), w)
				}
			}
			if len(got) < 5 {
				t.Errorf("%s: Search(%q) = %q, want 5 tools: five or more share its words", c.name, tt.query, names(got))
			}
			if want := referenceSearch(c.ix, tt.query, 5); !slices.Equal(got, want) {
				t.Errorf("%s: Search(%q) = %v, the reference ranks %v", c.name, tt.query, got, want)
			}
		}
	}
	// "get" is common in the pool, in many servers: it adds to the tools
	// that "weather" finds and fills the limit after them.
	got := names(pooled.Search("get the weather", 5))
	if len(got) != 5 || got[0] != "weather.forecast" {
		t.Errorf("Search(%q) = %q, want weather.forecast first of 5", "get the weather", got)
	}
}
