package discovery

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// paymentsCatalog is a catalog whose tools name pagination partners: a
// list with its partner, a partner that names itself, a chain of two
// partners, a tool whose partner the catalog does not hold, and a tool
// with none.
func paymentsCatalog(t testing.TB) *Catalog {
	t.Helper()
	defs := []struct{ id, desc, partner string }{
		{"pay.list", "List recent payments", "pay.list_more"},
		{"pay.list_more", "Fetch the next page of payments", "pay.list_more"},
		{"pay.history", "Show the payment history of an account", "pay_history_more"},
		{"pay.history_more", "Fetch more of an account history", "pay.history_older"},
		{"pay.history_older", "Fetch older entries of an account history", ""},
		{"pay.orphan", "Show orphaned payments", "pay.gone"},
		{"pay.refund", "Refund a payment", ""},
	}
	entries := make([]Entry, len(defs))
	for i, tl := range defs {
		entries[i] = Entry{
			Name:     tl.id,
			Partner:  tl.partner,
			Snapshot: model.ToolSnapshot{Name: PortableName(tl.id), Description: tl.desc, Parameters: json.RawMessage(objectSchema)},
		}
	}
	c, err := NewCatalog(entries, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	return c
}

// TestAnswerPartners checks that every returned tool brings its pagination
// partner right after it, outside the limit, each tool once, and never a
// partner the catalog does not hold.
func TestAnswerPartners(t *testing.T) {
	full := paymentsCatalog(t)
	withoutListMore := full.Subset(func(i int) bool { return i != 1 })
	cases := []struct {
		name  string
		c     *Catalog
		call  model.DiscoveryCall
		limit int
		want  []string
	}{
		{"named tool brings its partner", full, model.DiscoveryCall{Names: []string{"pay_list"}}, 0, []string{"pay_list", "pay_list_more"}},
		{"by catalog name", full, model.DiscoveryCall{Names: []string{"pay.list"}}, 0, []string{"pay_list", "pay_list_more"}},
		{"partner named first stays first", full, model.DiscoveryCall{Names: []string{"pay_list_more", "pay_list"}}, 0, []string{"pay_list_more", "pay_list"}},
		{"partner named later moves after its tool", full, model.DiscoveryCall{Names: []string{"pay_list", "pay_refund", "pay_list_more"}}, 0, []string{"pay_list", "pay_list_more", "pay_refund"}},
		{"self partner", full, model.DiscoveryCall{Names: []string{"pay_list_more"}}, 0, []string{"pay_list_more"}},
		{"chain by model and catalog names", full, model.DiscoveryCall{Names: []string{"pay_history"}}, 0, []string{"pay_history", "pay_history_more", "pay_history_older"}},
		{"partner outside the catalog", full, model.DiscoveryCall{Names: []string{"pay_orphan"}}, 0, []string{"pay_orphan"}},
		{"partner left out of a subset", withoutListMore, model.DiscoveryCall{Names: []string{"pay_list"}}, 0, []string{"pay_list"}},
		{"partners are outside the limit", full, model.DiscoveryCall{Names: []string{"pay_list", "pay_history"}}, 1, []string{"pay_list", "pay_list_more", "pay_history", "pay_history_more", "pay_history_older"}},
		{"query result brings its partner", full, model.DiscoveryCall{Query: "recent payments list"}, 1, []string{"pay_list", "pay_list_more"}},
		{"no partner", full, model.DiscoveryCall{Names: []string{"pay_refund"}}, 0, []string{"pay_refund"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.call.ID = "d1"
			r, err := tc.c.Answer(tc.call, tc.limit)
			if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if got := resultNames(r); !slices.Equal(got, tc.want) {
				t.Errorf("answered %v, want %v", got, tc.want)
			}
			if err := ValidateHistory([]model.Message{
				model.AssistantMessage(model.DiscoveryCallPart(tc.call)),
				model.DiscoveryMessage(r),
			}); err != nil {
				t.Errorf("the answer does not make a valid history: %v", err)
			}
		})
	}
}

// TestEntryFromSchemaPartner checks that an entry names the pagination
// partner of its record's contract.
func TestEntryFromSchemaPartner(t *testing.T) {
	cases := []struct {
		name     string
		contract *tools.Contract
		want     string
	}{
		{"partner", &tools.Contract{PaginationPartner: "pay.list_more"}, "pay.list_more"},
		{"contract without partner", &tools.Contract{SearchTerms: []string{"payments"}}, ""},
		{"no contract", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := EntryFromSchema(&tools.ToolSchema{Name: "pay.list", Description: "List payments", Payload: json.RawMessage(objectSchema), Contract: tc.contract})
			if err != nil {
				t.Fatal(err)
			}
			if e.Partner != tc.want {
				t.Errorf("Partner = %q, want %q", e.Partner, tc.want)
			}
		})
	}
}

// BenchmarkAnswerPartners measures answering a query from a 10,000-tool
// catalog in which every "list" tool names the next tool as its pagination
// partner.
func BenchmarkAnswerPartners(b *testing.B) {
	base := benchCatalog(b, 10_000)
	entries := slices.Clone(base.entries)
	for i := range entries[:len(entries)-1] {
		if strings.Contains(entries[i].Name, ".list_") {
			entries[i].Partner = entries[i+1].Name
		}
	}
	c, err := NewCatalog(entries, nil)
	if err != nil {
		b.Fatal(err)
	}
	call := model.DiscoveryCall{ID: "d", Names: []string{"svc1_list_invoice"}, Query: "list customer report"}
	if r, err := c.Answer(call, 0); err != nil || len(r.Tools) <= DefaultLimit {
		b.Fatalf("Answer = %d tools, %v; want partners beyond the limit", len(r.Tools), err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Answer(call, 0); err != nil {
			b.Fatal(err)
		}
	}
}
