// Package mcpdynamic is a golden design: an MCP server whose tools are
// whatever it lists at run time, deferred whole next to a registry source.
package mcpdynamic

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	Everything := Toolset(FromExternalMCP("everything", "everything"))
	Company := Registry("company", func() { URL("https://registry.example.com") })
	Service("lab", func() {
		Agent("tinkerer", "Try whatever the servers offer.", func() {
			Use(Everything, func() { Deferred() })
			Use(Company, func() { Deferred() })
		})
		Agent("caller", "Call the server's tools directly.", func() {
			Use(Everything) // immediate: every listed tool is declared
		})
	})
}
