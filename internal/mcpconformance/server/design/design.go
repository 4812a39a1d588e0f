// Package design is the design of the MCP server that the conformance
// suite's server scenarios test: a Goa service, served as an MCP server,
// whose methods are the tools those scenarios call by name. Its generated
// code is in ../gen (goa gen, see ../doc.go).
package design

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

var _ = API("conformance", func() {
	Title("MCP conformance server")
	Description("The tools the MCP conformance suite's server scenarios call")
})

// Address is named as the json-schema-2020-12 scenario expects its
// definition under $defs: gen defines a type there when a tool schema uses
// it more than once.
var Address = Type("address", func() {
	Description("A postal address")
	Attribute("street", String, "Street and number")
	Attribute("city", String, "City")
})

var _ = Service("conformance", func() {
	Description("Tools of the MCP conformance suite's server scenarios")
	MCPServer("goa-discovery-conformance", "1.0.0")
	Method("simple_text", func() {
		Result(func() {
			Attribute("text", String, "A fixed text")
			Required("text")
		})
		Tool("test_simple_text", "Return a simple text")
	})
	Method("error_handling", func() {
		Result(func() {
			Attribute("text", String, "Never returned: the method fails")
			Required("text")
		})
		Tool("test_error_handling", "Fail with an error message")
	})
	Method("reconnection", func() {
		Result(func() {
			Attribute("text", String, "A fixed text")
			Required("text")
		})
		Tool("test_reconnection", "Return a text after a pause")
	})
	Method("json_schema_2020_12", func() {
		Payload(func() {
			Attribute("name", String, "A name")
			Attribute("address", Address, "The current address")
			Attribute("previous_addresses", ArrayOf(Address), "Former addresses")
		})
		Result(func() {
			Attribute("text", String, "What was received")
			Required("text")
		})
		Tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features")
	})
})

var _ = Toolset(FromMCP("conformance", "conformance"))

// The generated MCP gateway's scenarios: a second service whose tools the
// gateway "hub" serves as toolset "test", so that the client sees them
// under the names the scenarios call ("simple_text" is
// "test_simple_text"), each listed from the start.
var _ = Service("gatewayed", func() {
	Description("Tools of the conformance scenarios, served through the generated MCP gateway")
	MCPServer("goa-discovery-conformance-gatewayed", "1.0.0")
	Method("simple_text", func() {
		Result(func() {
			Attribute("text", String, "A fixed text")
			Required("text")
		})
		Tool("simple_text", "Return a simple text")
	})
	Method("error_handling", func() {
		Result(func() {
			Attribute("text", String, "Never returned: the method fails")
			Required("text")
		})
		Tool("error_handling", "Fail with an error message")
	})
})

var gatewayTools = Toolset(FromMCP("gatewayed", "test"))

var _ = MCPGateway("hub", "1.0.0", func() {
	Use(gatewayTools)
})
