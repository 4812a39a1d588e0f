package emulation

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestArgumentsRoundTrip checks that discovery.ParseCall reads back what
// Arguments writes.
func TestArgumentsRoundTrip(t *testing.T) {
	for _, c := range []model.DiscoveryCall{
		{ID: "a", Query: "refund an invoice"},
		{ID: "b", Names: []string{"billing_refund", "records_lookup"}},
		{ID: "c", Query: "q \"quoted\" <html>", Names: []string{"x"}},
	} {
		args := Arguments(c)
		got, err := discovery.ParseCall(model.ToolCall{ID: c.ID, Name: discovery.ToolName, Arguments: []byte(args)})
		if err != nil {
			t.Fatalf("ParseCall(%s): %v", args, err)
		}
		if diff := cmp.Diff(c, got); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", args, diff)
		}
	}
	if got := Arguments(model.DiscoveryCall{Query: "x", Names: []string{"n"}}); got != `{"query":"x","names":["n"]}` {
		t.Errorf("Arguments = %s", got)
	}
}

func TestResultText(t *testing.T) {
	lookup := model.ToolSnapshot{Name: "records_lookup", Description: "Look up a record\nby its id"}
	search := model.ToolSnapshot{Name: "records.search", Description: "Search records"}
	hidden := model.ToolSnapshot{Name: "admin_wipe", Description: "Wipe everything"}
	declared := func(n string) (string, bool) {
		switch n {
		case "records_lookup":
			return n, true
		case "records.search":
			return "records_search", true
		}
		return "", false
	}
	cases := []struct {
		name string
		r    model.DiscoveryResult
		want string
	}{
		{"two", model.DiscoveryResult{Tools: []model.ToolSnapshot{lookup, hidden, search}},
			"Found 2 tools; they are declared from the next step on and can be called by their names:\n- records_lookup: Look up a record\n- records_search: Search records"},
		{"one", model.DiscoveryResult{Tools: []model.ToolSnapshot{lookup}},
			"Found 1 tool; it is declared from the next step on and can be called by its name:\n- records_lookup: Look up a record"},
		{"none declared", model.DiscoveryResult{Tools: []model.ToolSnapshot{hidden}}, "No tools found that can be called now."},
		{"note", model.DiscoveryResult{Note: "No available tool matches the query \"wipe\"."}, "No available tool matches the query \"wipe\"."},
		{"empty", model.DiscoveryResult{}, "No tools found."},
	}
	for _, tc := range cases {
		if got := ResultText(tc.r, declared); got != tc.want {
			t.Errorf("%s: ResultText =\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
