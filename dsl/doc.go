// Package dsl is the goa-discovery design language. Dot-import it next to
// goa.design/goa/v3/dsl: no name collides, and Goa's own Description, Title,
// Meta, URL and Version work on its expressions.
//
//	var Record = Type("Record", func() {
//	    Attribute("id", String, "Record identifier")
//	    Attribute("name", String, "Customer name")
//	    Required("id", "name")
//	})
//
//	var Records = Toolset("records", func() {
//	    Description("Customer records")
//	    Tool("lookup", "Look up a record by id", func() {
//	        Args(func() { Attribute("id", String); Required("id") })
//	        Return(Record)
//	    })
//	    Tool("search", "Search records by keywords", func() {
//	        Args(func() { Attribute("query", String); Required("query") })
//	        Return(ArrayOf(Record))
//	    })
//	})
//
//	var Company = Registry("company", func() { URL("https://registry.example") })
//	var Remote = Toolset(FromRegistry(Company, "billing"), func() { Version("1.2.3") })
//
//	var _ = Service("assistant", func() {
//	    Agent("assistant", "Find records.", func() {
//	        Use(Records, func() { Deferred("search") }) // lookup stays immediate
//	        Use(Remote, func() { Deferred() })
//	    })
//	})
//
// Toolsets of MCP servers are declared the same way: FromExternalMCP names
// an external server's toolset, with its tools declared in the design or,
// without tools, whatever the server lists at run time; FromMCP names a Goa
// service of the design that declares MCPServer and marks methods with Tool.
//
//	var Disk = Toolset(FromExternalMCP("files", "fs"), func() {
//	    Tool("read_file", "Read a file", func() {
//	        Args(func() { Attribute("path", String); Required("path") })
//	        Return(String)
//	    })
//	})
//	var Everything = Toolset(FromExternalMCP("everything", "everything"))
//	var Catalog = Toolset(FromMCP("catalog", "catalog"))
//
// Importing this package also registers the goa-discovery generators as a
// plugin of Goa's "goa gen", which then writes the toolset, agent and
// registry packages next to Goa's own.
//
// The functions only check where they are called and record what the design
// says. Misplaced calls and bad arguments are recorded too and reported with
// every validation error of the design in one run, each against the design
// file and line that made it.
package dsl
