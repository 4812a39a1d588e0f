// Package mcpgateway is a golden design: an MCP gateway that serves a Goa
// service's MCP tools, a declared external MCP toolset, a dynamic one, a
// registry toolset and a whole registry through search, each with its own
// Deferred selection.
package mcpgateway

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	Product := Type("Product", func() {
		Attribute("id", String, "Product identifier")
		Attribute("name", String, "Product name")
		Attribute("price", Float64, "Price in euros")
		Required("id", "name", "price")
	})
	Service("catalog", func() {
		Description("Product catalog")
		MCPServer("catalog", "1.0.0")
		Method("find", func() {
			Payload(func() {
				Attribute("query", String, "Keywords")
				Required("query")
			})
			Result(func() {
				Attribute("products", ArrayOf(Product), "Matching products")
				Required("products")
			})
			Tool("find_products", "Find products of the catalog by keywords")
		})
		Method("count", func() {
			Result(func() {
				Attribute("products", Int, "Number of products")
				Required("products")
			})
			Tool("count_products", "Count the products of the catalog")
		})
	})
	Catalog := Toolset(FromMCP("catalog", "catalog"))
	Notes := Toolset(FromExternalMCP("notebook", "notes"), func() {
		Description("Notes of the notebook")
		Tool("add_note", "Add a note to the notebook", func() {
			Args(func() {
				Attribute("text", String, "Text of the note", func() { MaxLength(100) })
				Required("text")
			})
		})
		Tool("list_notes", "List the notes of the notebook", func() {
			Args(func() {
				Attribute("limit", Int, "Most notes to list")
			})
		})
	})
	Weather := Toolset(FromExternalMCP("weather", "weather"))
	Company := Registry("company", func() { URL("https://registry.example") })
	Billing := Toolset(FromRegistry(Company, "billing"), func() { Version("1.4.0") })
	Partners := Registry("partners", func() { URL("https://partners.example") })
	MCPGateway("hub", "1.0.0", func() {
		Use(Catalog, func() { Deferred("find_products") }) // count_products stays listed
		Use(Notes, func() { Deferred("add_note") })        // list_notes stays listed
		Use(Weather, func() { Deferred() })                // whatever the server lists, found by search
		Use(Billing, func() { Deferred() })                // whatever the registry holds at 1.4.0, found by search
		Use(Partners, func() { Deferred() })               // every toolset of the registry, found by search
		GatewayMode("both")
	})
}
