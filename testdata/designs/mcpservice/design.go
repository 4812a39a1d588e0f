// Package mcpservice is a golden design: a Goa service that is also an MCP
// server, its methods marked as tools, used by an agent of the design.
package mcpservice

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
			Result(func() { // an MCP result is an object
				Attribute("products", ArrayOf(Product), "Matching products")
				Required("products")
			})
			Tool("find_products", "Find products by keywords")
		})
		Method("get", func() {
			Payload(func() {
				Attribute("id", String, "Product identifier")
				Required("id")
			})
			Result(Product)
			Tool("get_product", "Get a product by its identifier")
		})
		Method("count", func() { // a tool without arguments
			Result(func() {
				Attribute("products", Int, "Number of products")
				Required("products")
			})
			Tool("count_products", "Count the products of the catalog")
		})
		Method("reindex", func() {}) // served over HTTP only
	})
	Catalog := Toolset(FromMCP("catalog", "catalog"))
	Service("shop", func() {
		Agent("clerk", "Answer questions about products.", func() {
			Use(Catalog, func() { Deferred("get_product") })
		})
	})
}
