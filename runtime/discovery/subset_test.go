package discovery

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestSubset checks that a subset answers, permits and declares exactly as
// a catalog built from the kept entries over the same index does.
func TestSubset(t *testing.T) {
	full := subsetCatalog(t)
	keep := func(i int) bool { return i%3 != 1 }
	sub := full.Subset(keep)
	var kept []Entry
	for i, e := range full.entries {
		if keep(i) {
			kept = append(kept, e)
		}
	}
	want, err := NewCatalog(kept, full.index)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Len() != want.Len() {
		t.Fatalf("Len = %d, want %d", sub.Len(), want.Len())
	}
	if !reflect.DeepEqual(sub.Deferred(), want.Deferred()) {
		t.Errorf("Deferred = %v, want %v", sub.Deferred(), want.Deferred())
	}
	for i, e := range full.entries {
		for _, name := range []string{e.Snapshot.Name, e.Name} {
			if got := sub.Permits(name); got != want.Permits(name) {
				t.Errorf("Permits(%q) = %v, want %v", name, got, want.Permits(name))
			}
			gotSnap, gotOK := sub.Snapshot(name)
			wantSnap, wantOK := want.Snapshot(name)
			if gotOK != wantOK || gotOK != keep(i) || !reflect.DeepEqual(gotSnap, wantSnap) {
				t.Errorf("Snapshot(%q) = %v, %v; want %v, %v", name, gotSnap, gotOK, wantSnap, wantOK)
			}
		}
	}
	calls := []model.DiscoveryCall{
		{ID: "q", Query: "invoice"},
		{ID: "q", Query: "export customer report"},
		{ID: "n", Names: []string{"svc0_get_invoice", "svc1.list_invoice", "svc4_get_customer"}},
		{ID: "b", Names: []string{"svc1_list_invoice"}, Query: "delete"},
	}
	for _, call := range calls {
		for _, limit := range []int{1, 3, 0} {
			got, err := sub.Answer(call, limit)
			if err != nil {
				t.Fatal(err)
			}
			wantResult, err := want.Answer(call, limit)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, wantResult) {
				t.Errorf("Answer(%+v, %d) = %+v, want %+v", call, limit, got, wantResult)
			}
			for _, s := range got.Tools {
				if !want.Permits(s.Name) {
					t.Errorf("Answer(%+v) returned %q, which the subset leaves out", call, s.Name)
				}
			}
		}
	}
	if none := full.Subset(func(int) bool { return false }); none.Len() != 0 || none.Permits("svc0_get_invoice") {
		t.Errorf("an empty subset holds %d tools", none.Len())
	}
}

// subsetCatalog is a catalog of 30 tools with catalog names.
func subsetCatalog(t *testing.T) *Catalog {
	t.Helper()
	verbs := []string{"get", "list", "delete"}
	nouns := []string{"invoice", "customer", "report"}
	var entries []Entry
	for i := range 30 {
		v, o := verbs[i%3], nouns[(i/3)%3]
		entries = append(entries, Entry{
			Name: fmt.Sprintf("svc%d.%s_%s", i, v, o),
			Snapshot: model.ToolSnapshot{
				Name:        fmt.Sprintf("svc%d_%s_%s", i, v, o),
				Description: fmt.Sprintf("%s a %s; export it as a report", v, o),
				Parameters:  []byte(benchSchema),
			},
		})
	}
	c, err := NewCatalog(entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
