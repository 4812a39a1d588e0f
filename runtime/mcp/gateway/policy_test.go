package gateway

import (
	"slices"
	"strings"
	"testing"
)

// TestPolicyHolds tries each way to reach a tool that the server's deny or
// allow list removes: finding it (by keywords and by name), listing it
// after a search that would find it, and calling it directly and through
// call_tool. Each must fail.
func TestPolicyHolds(t *testing.T) {
	cases := []struct {
		name   string
		allow  []string
		deny   []string
		hidden string // the model-facing name that must stay out of reach
		query  string // words that would find it
		kept   string // a tool of the same server that stays served
	}{
		{name: "deny", deny: []string{"delete_note"}, hidden: "notes_delete_note", query: "delete note", kept: "notes_create_note"},
		{name: "allow", allow: []string{"create_note"}, hidden: "notes_delete_note", query: "delete note", kept: "notes_create_note"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ups := weatherServers()
			ups[1].Allow, ups[1].Deny = tc.allow, tc.deny
			g := newGateway(t, Options{Mode: ModeBoth}, ups...)
			c := connect(t, g)

			// Found: by keywords and by name.
			ans := c.search(t, map[string]any{"query": tc.query, "names": []string{tc.hidden, tc.kept}})
			if slices.Contains(foundNames(ans), tc.hidden) {
				t.Errorf("search found %s: %v", tc.hidden, foundNames(ans))
			}
			if !slices.Contains(foundNames(ans), tc.kept) {
				t.Errorf("search did not find %s, which stays served: %v", tc.kept, foundNames(ans))
			}
			if !slices.Equal(ans.NotFound, []string{tc.hidden}) {
				t.Errorf("not_found = %v, want [%s]", ans.NotFound, tc.hidden)
			}
			for _, p := range ans.Unavailable {
				if strings.Contains(p.Tool, "delete_note") {
					t.Errorf("the answer names the removed tool: %+v", p)
				}
			}

			// Listed.
			c.waitChanged(t)
			if got := c.names(t); slices.Contains(got, tc.hidden) || !slices.Contains(got, tc.kept) {
				t.Errorf("tools/list = %v", got)
			}

			// Called: directly and through call_tool.
			for _, call := range []struct {
				tool string
				args any
			}{
				{tc.hidden, map[string]any{"text": "x"}},
				{"call_tool", map[string]any{"name": tc.hidden, "arguments": map[string]any{"text": "x"}}},
			} {
				out, isErr := c.call(t, call.tool, call.args)
				if !isErr || strings.Contains(out, "notes/delete_note") {
					t.Errorf("calling %s through %s = %q (error %v), want a refusal", tc.hidden, call.tool, out, isErr)
				}
			}
		})
	}
}
