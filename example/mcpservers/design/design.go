package design

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Everything is whatever @modelcontextprotocol/server-everything lists,
// connected under the name "everything".
var Everything = Toolset(FromExternalMCP("everything", "everything"))

// Filesystem is whatever @modelcontextprotocol/server-filesystem lists,
// connected under the name "filesystem".
var Filesystem = Toolset(FromExternalMCP("filesystem", "files"))

var _ = Service("lab", func() {
	Agent("tinkerer", "Try the tools the MCP servers list.", func() {
		Use(Everything, func() { Deferred() })
		Use(Filesystem, func() { Deferred() })
	})
})
