// Package design is a valid goa-discovery design used by the gen command
// tests: a local toolset with named deferred tools, a registry toolset and a
// whole registry deferred entirely.
package design

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Record is a customer record.
var Record = Type("Record", func() {
	Attribute("id", String, "Record identifier")
	Attribute("name", String, "Customer name")
	Required("id")
})

// Records holds the customer record tools.
var Records = Toolset("records", func() {
	Description("Customer records")
	Tool("lookup", "Look up a record by id", func() {
		Args(func() {
			Attribute("id", String, "Record identifier")
			Required("id")
		})
		Return(Record)
	})
	Tool("search", "Search records by keywords", func() {
		Args(func() {
			Attribute("query", String, "Keywords")
			Required("query")
		})
		Return(ArrayOf(Record))
	})
	Tool("analyze", "Analyze a set of records", func() {
		Args(func() {
			Attribute("ids", ArrayOf(String), "Record identifiers")
			Required("ids")
		})
		Return(String, "Analysis")
	})
})

// Company is the company tool registry.
var Company = Registry("company", func() {
	Description("Company tool registry")
	URL("https://registry.example")
})

// Billing is the billing toolset published in the company registry.
var Billing = Toolset(FromRegistry(Company, "billing"), func() {
	Version("1.2.3")
})

var _ = Service("assistant", func() {
	Agent("assistant", "Find and analyze records.", func() {
		Use(Records, func() { Deferred("search", "analyze") })
		Use(Billing, func() { Deferred() })
	})
	Agent("generalist", "Use the company catalog.", func() {
		Use(Company, func() { Deferred() })
	})
})
