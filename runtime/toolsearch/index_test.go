package toolsearch

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

func TestCount(t *testing.T) {
	doc := Document{
		Name:        "orders.createOrder",
		Alias:       "create_order",
		Title:       "Create order",
		Description: "Create an order for a customer.",
		Parameters: json.RawMessage(`{
			"type": "object",
			"description": "Order arguments",
			"properties": {
				"customer": {"type": "object", "properties": {"email": {"type": "string", "description": "Customer email"}}},
				"items": {"type": "array", "items": {"type": "object", "properties": {"sku": {"title": "Stock unit"}}}},
				"priority": {"enum": ["urgent", "normal", 3]},
				"payment": {"anyOf": [{"properties": {"card": {}}}, {"properties": {"invoice": true}}]}
			},
			"$defs": {"address": {"properties": {"street": {"type": "string"}}}}
		}`),
		SearchTerms: []string{"purchase", "checkout"},
	}
	c, err := Count(doc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != doc.Name || c.Alias != doc.Alias {
		t.Errorf("names = %q, %q", c.Name, c.Alias)
	}
	if !slices.IsSortedFunc(c.Terms, func(a, b TermCounts) int { return strings.Compare(a.Term, b.Term) }) {
		t.Errorf("terms not sorted: %v", c.Terms)
	}
	want := map[string]FieldCounts{
		"order":    {Name: 2, Title: 1, Description: 1, ParamDescription: 1, Namespace: 1},
		"creat":    {Name: 2, Title: 1, Description: 1},
		"customer": {Description: 1, ParamName: 1, ParamDescription: 1},
		"email":    {ParamName: 1, ParamDescription: 1},
		"sku":      {ParamName: 1},
		"stock":    {ParamDescription: 1},
		"urgent":   {ParamDescription: 1},
		"card":     {ParamName: 1},
		"invoic":   {ParamName: 1},
		"street":   {ParamName: 1},
		"purchas":  {Extra: 1},
		"checkout": {Extra: 1},
		"item":     {ParamName: 1},
	}
	got := make(map[string]FieldCounts)
	for _, tc := range c.Terms {
		got[tc.Term] = tc.Counts
	}
	for term, w := range want {
		if got[term] != w {
			t.Errorf("counts of %q = %+v, want %+v", term, got[term], w)
		}
	}
	if _, ok := got["3"]; ok {
		t.Errorf("a numeric enum value was counted: %v", c.Terms)
	}
}

func TestCountErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  Document
	}{
		{"empty name", Document{Description: "x"}},
		{"malformed parameters", Document{Name: "t", Parameters: json.RawMessage(`{"type":`)}},
		{"parameters not a schema", Document{Name: "t", Parameters: json.RawMessage(`["a"]`)}},
		{"parameters a string", Document{Name: "t", Parameters: json.RawMessage(`"object"`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Count(tt.doc); !errors.Is(err, ErrInvalidDocument) {
				t.Errorf("Count error = %v, want ErrInvalidDocument", err)
			}
		})
	}
	for _, params := range []string{``, `null`, `true`, `{}`} {
		if _, err := Count(Document{Name: "t", Parameters: json.RawMessage(params)}); err != nil {
			t.Errorf("parameters %q: %v", params, err)
		}
	}
}

func TestNewIndexErrors(t *testing.T) {
	valid := FieldCounts{Description: 1}
	tools := []CatalogTool{{Name: "a"}, {Name: "b"}}
	tests := []struct {
		name string
		cat  CatalogCounts
		want error
	}{
		{"empty name", CatalogCounts{Tools: []CatalogTool{{Name: ""}}}, ErrInvalidDocument},
		{"duplicate name", CatalogCounts{Tools: []CatalogTool{{Name: "a"}, {Name: "a"}}}, ErrDuplicateName},
		{"alias is another tool's name", CatalogCounts{Tools: []CatalogTool{{Name: "a"}, {Name: "b", Alias: "a"}}}, ErrDuplicateName},
		{"empty term", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "", Tools: []ToolTerm{{0, valid}}}}}, ErrInvalidDocument},
		{"repeated term", CatalogCounts{Tools: tools, Terms: []TermPostings{
			{Term: "x", Tools: []ToolTerm{{0, valid}}}, {Term: "x", Tools: []ToolTerm{{1, valid}}}}}, ErrInvalidDocument},
		{"tool out of range", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "x", Tools: []ToolTerm{{2, valid}}}}}, ErrInvalidDocument},
		{"negative tool", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "x", Tools: []ToolTerm{{-1, valid}}}}}, ErrInvalidDocument},
		{"tool repeated", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "x", Tools: []ToolTerm{{0, valid}, {0, valid}}}}}, ErrInvalidDocument},
		{"tools out of order", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "x", Tools: []ToolTerm{{1, valid}, {0, valid}}}}}, ErrInvalidDocument},
		{"negative count", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "x", Tools: []ToolTerm{{0, FieldCounts{Name: 2, Title: -1}}}}}}, ErrInvalidDocument},
		{"no count", CatalogCounts{Tools: tools, Terms: []TermPostings{{Term: "x", Tools: []ToolTerm{{0, FieldCounts{}}}}}}, ErrInvalidDocument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewIndex(tt.cat); !errors.Is(err, tt.want) {
				t.Errorf("NewIndex error = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := NewIndexFromDocuments([]Document{{Name: "a"}, {Name: "b", Alias: "b"}}); err != nil {
		t.Errorf("an alias equal to the name is no alias: %v", err)
	}
}

// TestBuildPathsAgree checks that an index built from documents, from
// per-tool counts and from catalog counts ranks alike.
func TestBuildPathsAgree(t *testing.T) {
	docs := testCatalog()
	counts := make([]Counts, len(docs))
	for i, d := range docs {
		c, err := Count(d)
		if err != nil {
			t.Fatal(err)
		}
		counts[i] = c
	}
	fromDocs := mustIndex(t, docs)
	fromCounts, err := NewIndexFromCounts(counts)
	if err != nil {
		t.Fatal(err)
	}
	fromCatalog, err := NewIndex(NewCatalogCounts(counts))
	if err != nil {
		t.Fatal(err)
	}
	if fromDocs.Len() != len(docs) {
		t.Errorf("Len = %d, want %d", fromDocs.Len(), len(docs))
	}
	for _, q := range []string{"weather", "convert units", "customer records", "help", "records_lookup", "files in a directory"} {
		want := fromDocs.Search(q, 20)
		if len(want) == 0 {
			t.Errorf("Search(%q) found nothing", q)
		}
		for _, ix := range []*Index{fromCounts, fromCatalog} {
			if got := ix.Search(q, 20); !slices.Equal(got, want) {
				t.Errorf("Search(%q) = %v, want %v", q, got, want)
			}
		}
	}
}

func TestNewCatalogCounts(t *testing.T) {
	cat := NewCatalogCounts([]Counts{
		{Name: "b", Terms: []TermCounts{{Term: "zip", Counts: FieldCounts{Name: 1}}, {Term: "add", Counts: FieldCounts{Description: 2}}}},
		{Name: "a", Alias: "alias_a", Terms: []TermCounts{{Term: "add", Counts: FieldCounts{Title: 1}}}},
	})
	want := CatalogCounts{
		Tools: []CatalogTool{{Name: "b"}, {Name: "a", Alias: "alias_a"}},
		Terms: []TermPostings{
			{Term: "add", Tools: []ToolTerm{{0, FieldCounts{Description: 2}}, {1, FieldCounts{Title: 1}}}},
			{Term: "zip", Tools: []ToolTerm{{0, FieldCounts{Name: 1}}}},
		},
	}
	if !slices.Equal(cat.Tools, want.Tools) || len(cat.Terms) != len(want.Terms) {
		t.Fatalf("NewCatalogCounts = %+v, want %+v", cat, want)
	}
	for i := range want.Terms {
		if cat.Terms[i].Term != want.Terms[i].Term || !slices.Equal(cat.Terms[i].Tools, want.Terms[i].Tools) {
			t.Errorf("term %d = %+v, want %+v", i, cat.Terms[i], want.Terms[i])
		}
	}
	// The postings follow each other in the order of the terms, as NewIndex
	// reads them ("zip" occurs first but sorts last).
	for i := 1; i < len(cat.Terms); i++ {
		prev := cat.Terms[i-1].Tools
		end := unsafe.Add(unsafe.Pointer(unsafe.SliceData(prev)), uintptr(len(prev))*unsafe.Sizeof(ToolTerm{}))
		if unsafe.Pointer(unsafe.SliceData(cat.Terms[i].Tools)) != end {
			t.Errorf("the postings of term %d (%q) do not follow those of term %d", i, cat.Terms[i].Term, i-1)
		}
	}
}
