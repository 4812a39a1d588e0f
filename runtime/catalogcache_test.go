package runtime

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// TestCatalogCacheBytes checks that the catalog cache keeps catalogs
// while their schema bytes stay within catalogCacheBytes, and always the
// latest one.
func TestCatalogCacheBytes(t *testing.T) {
	big := func(version string, n int) *catalog {
		c := newCatalog(version, 1)
		payload := json.RawMessage(`{"description":"` + strings.Repeat("x", n) + `"}`)
		id := tools.Ident("ts.big")
		c.byIdent[id] = &catalogTool{id: id, schema: &tools.ToolSchema{Name: id, Payload: payload}}
		return c
	}
	cases := []struct {
		name string
		each int
		puts int
		want []int // the catalogs kept, by order of put
	}{
		{"small catalogs up to the count", 1000, catalogCacheSize + 2, nil},
		{"three of 6 MiB: the last two", 6 << 20, 3, []int{1, 2}},
		{"one larger than the budget stays alone", catalogCacheBytes + 1, 2, []int{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cc catalogCache
			for i := range tc.puts {
				cc.put(fmt.Sprint(i), big(fmt.Sprint(i), tc.each))
			}
			want := tc.want
			if want == nil {
				for i := tc.puts - catalogCacheSize; i < tc.puts; i++ {
					want = append(want, i)
				}
			}
			var got []int
			for i := range tc.puts {
				if cc.get(fmt.Sprint(i)) != nil {
					got = append(got, i)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("kept %v, want %v", got, want)
			}
		})
	}
}
