package toolsearch

import (
	"slices"
	"testing"
)

// typoCatalog is a small catalog of tickets, work items, documents and
// deployments, for typing errors and words typed joined.
func typoCatalog() []Document {
	return []Document{
		{Name: "tickets_close_ticket", Description: "Close a support ticket."},
		{Name: "tickets_get_ticket", Description: "Get a support ticket by its id."},
		{Name: "tickets_list_tickets", Description: "List the open support tickets."},
		{Name: "work_items_create", Description: "Create a new work item in a project."},
		{Name: "convert_to_markdown", Description: "Convert a file to Markdown."},
		{Name: "run_script", Description: "Run a JavaScript snippet in the page."},
		{Name: "rollout_deployment", Description: "Roll out a deployment to the cluster."},
		{Name: "set_table", Description: "Set the rows of a table."},
		{Name: "buy_cable", Description: "Order a network cable."},
		{Name: "add_issue_comment", Description: "Add a comment to an issue."},
		{Name: "graph_search_nodes", Description: "Search the nodes of a knowledge graph."},
		{Name: "feedback_send", Description: "Send feedback on a search, given its searchId."},
	}
}

func TestTyposAndJoinedWords(t *testing.T) {
	ix := mustIndex(t, typoCatalog())
	tests := []struct {
		name  string
		query string
		want  string // the first tool; "" when nothing is found
		not   string // a tool that must not be found
	}{
		{"a swap of two letters is one edit", "clsoe tikcet", "tickets_close_ticket", ""},
		{"one edit in a word of five letters", "conver file to markdonw", "convert_to_markdown", ""},
		{"begun and swapped words", "creat new work itme", "work_items_create", ""},
		{"two edits in a word of nine letters", "deplymnet", "rollout_deployment", ""},
		{"no two edits in a word of eight letters", "mrkdonwn", "", ""},
		{"a letter left out", "tcket", "tickets_close_ticket", ""},
		{"no edit in a word of four letters", "itme", "", ""},
		{"two words joined", "closeticket", "tickets_close_ticket", ""},
		{"two words joined, one a verb", "getticket", "tickets_get_ticket", ""},
		{"three words joined", "listopentickets", "tickets_list_tickets", ""},
		{"lowercase word split at a case change in the catalog", "javascript", "run_script", ""},
		{"a known word is never corrected", "cable", "buy_cable", "set_table"},
		{"a joined word whose parts no tool has together", "tableticket", "", ""},
		{"joined with a word other languages use as a function word", "issuecomment", "add_issue_comment", ""},
		{"a typing error of such a word", "coment on it", "add_issue_comment", ""},
		{"joined words before a word two edits away", "searchnodes", "graph_search_nodes", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := names(ix.Search(tt.query, 5))
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("Search(%q) = %v, want nothing", tt.query, got)
			case tt.want != "" && (len(got) == 0 || got[0] != tt.want):
				t.Errorf("Search(%q) = %v, want %s first", tt.query, got, tt.want)
			case tt.not != "" && slices.Contains(got, tt.not):
				t.Errorf("Search(%q) = %v, want no %s", tt.query, got, tt.not)
			}
			if want := referenceSearch(ix, tt.query, 5); !slices.Equal(names(want), got) {
				t.Errorf("Search(%q) = %v, the reference ranks %v", tt.query, got, names(want))
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"close", "close", 1, 0},
		{"close", "clsoe", 1, 1},
		{"ticket", "tikcet", 1, 1},
		{"markdown", "markdonw", 1, 1},
		{"deployment", "deplymnet", 2, 2},
		{"markdown", "mrkdonwn", 1, 2},
		{"cable", "table", 1, 1},
		{"ab", "abcd", 1, 2},
		{"", "ab", 2, 2},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, []byte(tt.b), tt.limit); got != min(tt.want, tt.limit+1) {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, min(tt.want, tt.limit+1))
		}
		if got := referenceEdits(tt.a, tt.b); got != tt.want {
			t.Errorf("referenceEdits(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
