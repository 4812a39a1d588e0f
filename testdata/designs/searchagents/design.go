// Package searchagents is a design for goa-discovery search --design: two
// agents, one with local deferred tools, a declared MCP toolset and a
// registry toolset, the other with a whole registry and an MCP server whose
// tools it lists at run time.
package searchagents

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Records holds the customer record tools.
var Records = Toolset("records", func() {
	Description("Customer records")
	Tool("lookup", "Look up a record by id", func() {
		Args(func() {
			Attribute("id", String, "Record identifier")
			Required("id")
		})
	})
	Tool("archive", "Archive a stale customer record", func() {
		Args(func() {
			Attribute("id", String, "Record identifier")
			Required("id")
		})
	})
	Tool("export", "Export customer records as a spreadsheet", func() {
		Args(func() {
			Attribute("format", String, "File format", func() { Enum("csv", "xlsx") })
		})
	})
})

// Maps is a declared MCP toolset of the "maps" server.
var Maps = Toolset(FromExternalMCP("maps", "maps"), func() {
	Description("Maps and places")
	Tool("geocode", "Turn a street address into coordinates", func() {
		Args(func() {
			Attribute("address", String, "Street address")
			Required("address")
		})
	})
})

// Everything is an MCP server whose tools are whatever it lists.
var Everything = Toolset(FromExternalMCP("everything", "everything"))

// Company is the company tool registry.
var Company = Registry("company", func() { URL("https://registry.example.com") })

// Billing is a registry toolset.
var Billing = Toolset(FromRegistry(Company, "billing"), func() { Version("1.4.0") })

var _ = Service("office", func() {
	Agent("clerk", "Keep customer records.", func() {
		Use(Records, func() { Deferred("archive", "export") }) // lookup stays immediate
		Use(Maps, func() { Deferred() })
		Use(Billing, func() { Deferred() })
	})
	Agent("scout", "Find tools anywhere.", func() {
		Use(Records)
		Use(Company, func() { Deferred() })
		Use(Everything, func() { Deferred() })
	})
})
