// Package design is an invalid goa-discovery design used by the gen command
// tests: every marked line breaks a rule, and gen must report all of them in
// one run.
package design

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Records holds the customer record tools.
var Records = Toolset("records", func() {
	Tool("lookup", "Look up a record by id", func() {
		Args(String) // ERR args-string
	})
	Tool("search_products", "Search records by keywords")
	Deferred("search_products") // ERR toolset-deferred
})

// ToolCatalog is named "tool", so that its tool "search" takes the discovery
// tool's name.
var ToolCatalog = Toolset("tool", func() {
	Tool("search", "Search tools") // ERR reserved
})

// RecordsSearch collides with Records: both reach the model as
// "records_search_products".
var RecordsSearch = Toolset("records_search", func() {
	Tool("products", "List products")
})

// Company is the company tool registry.
var Company = Registry("company", func() {
	URL("registry.example") // ERR url
})

// Billing is the billing toolset published in the company registry.
var Billing = Toolset(FromRegistry(Company, "billing"), func() {
	Version("1.2") // ERR version
})

// Planning and Review are exported by two agents that use each other's.
var (
	Planning = Toolset("planning", func() { Tool("plan", "Plan a task") })
	Review   = Toolset("review", func() { Tool("review", "Review a plan") })
)

var _ = Service("assistant", func() {
	Agent("assistant", "Find records.", func() {
		Use(Records, func() {
			Deferred("serch_products") // ERR typo
		})
		Use(Billing, func() {
			Deferred("invoice") // ERR registry-named
		})
		Use(Company)       // ERR overlap
		Use(RecordsSearch) // ERR collision
	})
	Agent("planner", "Plan tasks.", func() {
		Export(Planning)
		Use(Review)
	})
	Agent("reviewer", "Review plans.", func() {
		Export(Review)
		Use(Planning) // ERR cycle
	})
})

// Tickets breaks the rules of its generated package: a tool named like what
// every toolset package declares, a default its own schema rejects, and a
// field that would hide the method setting the defaults.
var Tickets = Toolset("tickets", func() {
	Tool("specs", "List ticket specs") // ERR package-ident
	Tool("search", "Search tickets", func() {
		Args(func() { // ERR generated-args
			Attribute("set_defaults", Boolean)
			Attribute("limit", Int, func() { Maximum(100); Default(200) })
		})
	})
})
