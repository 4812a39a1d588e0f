package dsl_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// recordsToolset declares the toolset most rule designs use.
func recordsToolset() *expr.ToolsetExpr {
	return Toolset("records", func() {
		Tool("lookup", "Look up a record by id")
		Tool("search", "Search records by keywords")
		Tool("analyze", "Analyze a set of records")
	})
}

// companyRegistry declares the registry most rule designs use.
func companyRegistry() *expr.RegistryExpr {
	return Registry("company", func() { URL("https://registry.example") })
}

// Rules 1 and 2 say what valid selections mean: Deferred() selects every
// tool and may repeat; named selections combine. The designs that break them
// are those of rules 3 and 5 below.
func TestDeferredSelections(t *testing.T) {
	cases := []struct {
		name string
		use  func()
		want []string
	}{
		{"rule 1: Deferred() selects every tool", func() { Deferred() }, []string{"lookup", "search", "analyze"}},
		{"rule 1: repeating Deferred() is valid", func() { Deferred(); Deferred() }, []string{"lookup", "search", "analyze"}},
		{"rule 2: named declarations combine", func() { Deferred("search"); Deferred("analyze") }, []string{"search", "analyze"}},
		{"rule 2: names in one declaration", func() { Deferred("analyze", "search") }, []string{"analyze", "search"}},
		{"no Deferred keeps every tool immediate", func() {}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, err := designtest.Run(t, func() {
				records := recordsToolset()
				Service("svc", func() {
					Agent("agent", "An agent.", func() { Use(records, tc.use) })
				})
			})
			if err != nil {
				t.Fatalf("valid design: %v", err)
			}
			if diff := cmp.Diff(tc.want, toolNames(root.Agents[0].Uses[0].DeferredTools())); diff != "" {
				t.Errorf("deferred tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeferredRules(t *testing.T) {
	runDesignCases(t, []designCase{
		{"rule 3: empty name", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records, func() {
						Deferred("search", "") // ERR empty
					})
				})
			})
		}, []wantErr{{`Use of toolset "records" in agent "agent": empty tool name in Deferred("search", "")`, "empty"}}},
		{"rule 3: duplicate name in one declaration", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records, func() {
						Deferred("search", "search") // ERR dup-one
					})
				})
			})
		}, []wantErr{{`duplicate tool "search" in Deferred("search", "search")`, "dup-one"}}},
		{"rule 3: duplicate name across declarations", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records, func() {
						Deferred("search", "analyze")
						Deferred("analyze") // ERR dup-across
					})
				})
			})
		}, []wantErr{{`duplicate tool "analyze" in Deferred("analyze"): already selected by Deferred("search", "analyze")`, "dup-across"}}},
		{"rule 4: unknown names", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records, func() {
						Deferred("serch")          // ERR typo
						Deferred("records.search") // ERR qualified
						Deferred("Analyze")        // ERR go-name
						Deferred("delete")         // ERR unknown
					})
				})
			})
		}, []wantErr{
			{`unknown tool "serch" in Deferred("serch"): toolset "records" has no tool "serch"; did you mean "search"?`, "typo"},
			{`unknown tool "delete" in Deferred("delete"): toolset "records" has tools "analyze", "lookup", "search"`, "unknown"},
			{`unknown tool "records.search" in Deferred("records.search"): toolset "records" has no tool "records.search"; did you mean "search"?`, "qualified"},
			{`unknown tool "Analyze" in Deferred("Analyze"): toolset "records" has no tool "Analyze"; did you mean "analyze"?`, "go-name"},
		}},
		{"rule 4: a misspelled name suggests the closest tool", func() {
			products := Toolset("products", func() {
				Tool("search_products", "Search products by keywords")
				Tool("get_product", "Get a product by id")
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(products, func() {
						Deferred("serch_products")       // ERR misspelled
						Deferred("SearchProdcuts")       // ERR misspelled-go-name
						Deferred("products_get_product") // ERR model-facing
					})
				})
			})
		}, []wantErr{
			{`unknown tool "serch_products" in Deferred("serch_products"): toolset "products" has no tool "serch_products"; did you mean "search_products"?`, "misspelled"},
			{`unknown tool "SearchProdcuts" in Deferred("SearchProdcuts"): toolset "products" has no tool "SearchProdcuts"; did you mean "search_products"?`, "misspelled-go-name"},
			{`unknown tool "products_get_product" in Deferred("products_get_product"): "products_get_product" is the name the model sees; did you mean "get_product"? (Deferred takes the authored tool name)`, "model-facing"},
		}},
		{"rule 4: judged against the complete tool list", func() {
			planner := Toolset("planner", func() { Tool("plan", "Plan a task") })
			Service("svc", func() {
				Agent("user", "Uses the planner before its export runs.", func() {
					Use(planner, func() {
						Deferred("replan", "cancel") // ERR complete
					})
				})
				Agent("planner", "Plans.", func() {
					Export(planner, func() { Tool("replan", "Revise a plan") })
				})
			})
		}, []wantErr{{`unknown tool "cancel" in Deferred("replan", "cancel"): toolset "planner" has tools "plan", "replan"`, "complete"}}},
		{"rule 5: Deferred() then named", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records, func() {
						Deferred()
						Deferred("search") // ERR all-then-named
					})
				})
			})
		}, []wantErr{{`Deferred("search") cannot be combined with Deferred() at`, "all-then-named"}}},
		{"rule 5: named then Deferred()", func() {
			records := recordsToolset()
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Use(records, func() {
						Deferred("search")
						Deferred() // ERR named-then-all
					})
				})
			})
		}, []wantErr{{`Deferred() cannot be combined with the named selection Deferred("search") at`, "named-then-all"}}},
		{"rule 6: Deferred outside a Use", func() {
			Deferred("top") // ERR top
			Toolset("records", func() {
				Tool("search", "Search records")
				Deferred("search") // ERR in-toolset
			})
			Service("svc", func() {
				Agent("agent", "An agent.", func() {
					Deferred() // ERR in-agent
					Export("exported", func() {
						Tool("run", "Run the agent")
						Deferred("run") // ERR in-export
					})
				})
			})
		}, []wantErr{
			{`top-level: Deferred must appear in a Use`, "top"},
			{`toolset "records": Deferred must appear in a Use`, "in-toolset"},
			{`agent "agent" of service "svc": Deferred must appear in a Use`, "in-agent"},
			{`Export of toolset "exported" in agent "agent": Deferred must appear in a Use`, "in-export"},
		}},
		{"rule 7: named selection on registry sources", func() {
			company := companyRegistry()
			remote := Toolset(FromRegistry(company, "records"))
			Service("svc", func() {
				Agent("one", "Uses a registry toolset.", func() {
					Use(remote, func() {
						Deferred("search") // ERR registry-toolset
					})
				})
				Agent("two", "Uses a whole registry.", func() {
					Use(company, func() {
						Deferred("search") // ERR whole-registry
					})
				})
			})
		}, []wantErr{
			{`named selection Deferred("search") is not allowed on registry toolset "records": its tools are only known at run time; use Deferred()`, "registry-toolset"},
			{`named selection Deferred("search") is not allowed on registry "company"`, "whole-registry"},
		}},
	})
}
