package toolsearch

import (
	"fmt"
	"slices"
	"testing"
)

func TestRarestTerms(t *testing.T) {
	key := func(tools, term int) uint64 { return uint64(tools)<<32 | uint64(term) }
	for _, c := range []struct {
		name     string
		postings [][]int32 // the tools of each term
		tools    int
		want     [][2]uint64
	}{
		{name: "no terms", tools: 2, want: [][2]uint64{{noTerm, noTerm}, {noTerm, noTerm}}},
		{
			name:     "a term of one tool is not shared",
			postings: [][]int32{{0}, {0, 1}},
			tools:    2,
			want:     [][2]uint64{{key(2, 1), noTerm}, {key(2, 1), noTerm}},
		},
		{
			name:     "fewest tools first, then the lower term",
			postings: [][]int32{{0, 1, 2}, {0, 1}, {1, 2}, {0, 2}},
			tools:    3,
			want:     [][2]uint64{{key(2, 1), key(2, 3)}, {key(2, 1), key(2, 2)}, {key(2, 2), key(2, 3)}},
		},
		{
			name:     "a common term second",
			postings: [][]int32{{0, 1, 2, 3}, {2, 3}},
			tools:    4,
			want:     [][2]uint64{{key(4, 0), noTerm}, {key(4, 0), noTerm}, {key(2, 1), key(4, 0)}, {key(2, 1), key(4, 0)}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			postings := make([][]ToolTerm, len(c.postings))
			for term, tools := range c.postings {
				for _, tool := range tools {
					postings[term] = append(postings[term], ToolTerm{Tool: tool})
				}
			}
			if got := rarestTerms(postings, c.tools); !slices.Equal(got, c.want) {
				t.Errorf("rarestTerms = %v, want %v", got, c.want)
			}
		})
	}
}

// TestOrderGroups checks that the groups are renumbered by the keys of
// their first members, members kept in registration order and every tool
// in the group that holds it.
func TestOrderGroups(t *testing.T) {
	// Tools 0 and 3 are alike, and 2 and 4; the keys put the group of
	// tools 2 and 4 first, then those of tool 0 and of tool 1, whose keys
	// are equal, in the order of their first members.
	gs := toolGroups{of: []int32{0, 1, 2, 0, 2}, start: []int32{0, 2, 3, 5}, members: []int32{0, 3, 1, 2, 4}}
	keys := [][2]uint64{{5, 1}, {5, 1}, {3, noTerm}, {5, 1}, {3, noTerm}}
	got := orderGroups(gs, keys)
	want := toolGroups{of: []int32{1, 2, 0, 1, 0}, start: []int32{0, 2, 4, 5}, members: []int32{2, 4, 0, 3, 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("orderGroups = %+v, want %+v", got, want)
	}
}

// TestContentOrderKeepsFamiliesTogether checks what the order is for: the
// copies of a tool, registered apart (each server lists its tools in turn)
// and each with its server's word, are numbered next to each other, their
// tool's own words being rarer than a server's; so a word of 64 groups
// holds few tools that differ.
func TestContentOrderKeepsFamiliesTogether(t *testing.T) {
	subjects := []string{"weather", "currency", "invoice", "calendar", "playlist", "recipe", "flight", "parcel", "ticket", "lyrics"}
	const servers = 6
	var docs []Document
	for s := range servers {
		for _, subject := range subjects {
			docs = append(docs, Document{
				Name:        fmt.Sprintf("server%c.get_%s", 'a'+s, subject),
				Description: fmt.Sprintf("Get the %s details. Served by server%c.", subject, 'a'+s),
			})
		}
	}
	ix := mustIndex(t, docs)
	ix.group()
	if n := ix.groups.len(); n != len(docs) {
		t.Fatalf("%d groups, want one a tool (%d)", n, len(docs))
	}
	for i, subject := range subjects {
		var groups []int32
		for s := range servers {
			groups = append(groups, ix.groups.of[s*len(subjects)+i])
		}
		slices.Sort(groups)
		if groups[len(groups)-1]-groups[0] != servers-1 {
			t.Errorf("the copies of get_%s are groups %v, want %d in a row", subject, groups, servers)
		}
	}
}
