package discovery

import (
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestCheckModelName(t *testing.T) {
	cases := []struct {
		id   tools.Ident
		want string
	}{
		{"records.lookup", ""},
		{"tool.search", `the model knows this tool as "tool_search", a name reserved for tool discovery (reserved: tool_search, call_tool, tool_search_tool_bm25, tool_search_tool_regex); rename the tool or its toolset`},
		{"call.tool", `the model knows this tool as "call_tool", a name reserved`},
		{"tool_search.tool_bm25", `the model knows this tool as "tool_search_tool_bm25", a name reserved`},
		{"tool.search_more", ""},
		{tools.Ident(strings.Repeat("t", 40) + "." + strings.Repeat("y", 23)), ""},
		{tools.Ident(strings.Repeat("t", 40) + "." + strings.Repeat("y", 24)), `the model knows this tool as "` + strings.Repeat("t", 40) + "_" + strings.Repeat("y", 24) + `", 65 characters long; toolset name, '_' and tool name together must fit in 64`},
		{tools.Ident(strings.Repeat("t", 64) + "." + strings.Repeat("y", 64)), `the model knows this tool as "` + strings.Repeat("t", 64) + "_" + strings.Repeat("y", 54) + `_`},
	}
	for _, tc := range cases {
		t.Run(string(tc.id), func(t *testing.T) {
			err := CheckModelName(tc.id)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckModelName: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("CheckModelName = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestModelNames(t *testing.T) {
	cases := []struct {
		name  string
		ids   []tools.Ident
		where string
		want  string // the error for the last id, "" when every id takes its name
	}{
		{"distinct", []tools.Ident{"a.b", "a.c", "b.a"}, "", ""},
		{"same tool twice", []tools.Ident{"a.b", "a.b"}, "", ""},
		{"shared", []tools.Ident{"a_b.c", "a.b_c"}, "", `tool "b_c" of toolset "a" and tool "c" of toolset "a_b" both reach the model as "a_b_c"; rename one`},
		{"shared, with where", []tools.Ident{"a.b_c", "x.y", "a_b.c"}, "used at design.go:3", `tool "c" of toolset "a_b" and tool "b_c" of toolset "a" (used at design.go:3) both reach the model as "a_b_c"; rename one`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var m ModelNames
			for i, id := range tc.ids {
				first, ok := m.Add(id)
				last := i == len(tc.ids)-1
				if !last || tc.want == "" {
					if !ok {
						t.Fatalf("Add(%q) refused: taken by %q", id, first)
					}
					continue
				}
				if ok {
					t.Fatalf("Add(%q) took a name already taken", id)
				}
				if got := SharedModelNameError(id, first, tc.where).Error(); got != tc.want {
					t.Fatalf("SharedModelNameError =\n%s\nwant\n%s", got, tc.want)
				}
			}
		})
	}
}
