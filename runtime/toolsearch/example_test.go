package toolsearch_test

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

func ExampleTerms() {
	fmt.Println(toolsearch.Terms("getHTTPServerStatus"))
	fmt.Println(toolsearch.Terms("list_open-tickets.v2"))
	fmt.Println(toolsearch.Terms("Calculating the calculations"))
	// Output:
	// [get http server status gethttpserverstatus]
	// [list open ticket v2]
	// [calculat calculat]
}

func ExampleIndex_Search() {
	ix, err := toolsearch.NewIndexFromDocuments([]toolsearch.Document{
		{Name: "records.lookup", Description: "Look up a record by id."},
		{Name: "records.search", Description: "Search records by keywords.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"keywords":{"type":"string"}}}`)},
		{Name: "weather.forecast", Description: "Get the weather forecast for a city."},
	})
	if err != nil {
		panic(err)
	}
	for _, r := range ix.Search("find records matching some keywords", 0) {
		fmt.Printf("%s %.2f %s\n", r.Name, r.Score, r.Fields)
	}
	// Output:
	// records.search 1.73 name,description,param_name,namespace
	// records.lookup 1.17 name,description,namespace
}

// Generated code embeds a catalog's counts and builds its index at start-up
// without tokenizing.
func ExampleNewIndex() {
	counts := toolsearch.CatalogCounts{
		Tools: []toolsearch.CatalogTool{{Name: "records.lookup"}, {Name: "records.search"}},
		Terms: []toolsearch.TermPostings{
			{Term: "keyword", Tools: []toolsearch.ToolTerm{{Tool: 1, Counts: toolsearch.FieldCounts{Description: 1}}}},
			{Term: "lookup", Tools: []toolsearch.ToolTerm{{Tool: 0, Counts: toolsearch.FieldCounts{Name: 1}}}},
			{Term: "record", Tools: []toolsearch.ToolTerm{
				{Tool: 0, Counts: toolsearch.FieldCounts{Name: 1, Description: 1}},
				{Tool: 1, Counts: toolsearch.FieldCounts{Name: 1, Description: 1}},
			}},
			{Term: "search", Tools: []toolsearch.ToolTerm{{Tool: 1, Counts: toolsearch.FieldCounts{Name: 1, Description: 1}}}},
		},
	}
	ix, err := toolsearch.NewIndex(counts)
	if err != nil {
		panic(err)
	}
	for _, r := range ix.Search("search by keywords", 0) {
		fmt.Println(r.Name)
	}
	// Output:
	// records.search
	// records.lookup
}

func ExampleIndex_Lookup() {
	ix, err := toolsearch.NewIndexFromDocuments([]toolsearch.Document{
		{Name: "records.lookup", Alias: "records_lookup"},
		{Name: "records.search"},
	})
	if err != nil {
		panic(err)
	}
	results, err := ix.Lookup("records.search", "records_lookup", "records.delete")
	for _, r := range results {
		fmt.Println(r.Name)
	}
	fmt.Println(err)
	// Output:
	// records.search
	// records.lookup
	// unknown tool: "records.delete"
}
