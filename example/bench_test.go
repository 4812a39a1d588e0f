package example_test

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// BenchmarkTicketsIndex compares building the search index of the tickets
// toolset from its generated counts with analyzing its schemas at start-up.
func BenchmarkTicketsIndex(b *testing.B) {
	b.Run("generated counts", func(b *testing.B) {
		counts := tickets.SearchCounts()
		for b.Loop() {
			if _, err := toolsearch.NewIndexFromCounts(counts); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("documents", func(b *testing.B) {
		var docs []toolsearch.Document
		for _, s := range tickets.ToolSchemas() {
			entry, err := discovery.EntryFromSchema(&s)
			if err != nil {
				b.Fatal(err)
			}
			docs = append(docs, toolsearch.Document{
				Name: string(s.Name), Alias: entry.Snapshot.Name, Title: s.Title, Description: s.Description,
				Parameters: entry.Snapshot.Parameters, SearchTerms: entry.SearchTerms,
			})
		}
		for b.Loop() {
			if _, err := toolsearch.NewIndexFromDocuments(docs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSpec measures the generated switch from a tool identifier to its
// spec, on every call the runtime decodes.
func BenchmarkSpec(b *testing.B) {
	for b.Loop() {
		if _, ok := tickets.Spec(tickets.CloseTicket); !ok {
			b.Fatal("no spec")
		}
	}
}
