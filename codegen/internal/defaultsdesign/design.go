// Package defaultsdesign is a golden design: optional attributes with
// defaults of every shape (numbers of each size, strings, booleans, lists,
// maps, objects) at the top level and inside user types reached through
// fields, lists and maps, in arguments and results.
package defaultsdesign

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	window := Type("Window", func() {
		Description("A reporting window")
		Attribute("days", Int64, "Length in days", func() { Minimum(1); Default(7) })
		Attribute("unit", String, "Bucket unit", func() { Enum("hour", "day"); Default("day") })
		Attribute("label", String, "Display label")
	})
	reports := Toolset("reports", func() {
		Description("Usage reports")
		Tool("run_report", "Run a usage report", func() {
			Args(func() {
				Attribute("query", String, "What to report on")
				Attribute("limit", Int, "Most rows", func() { Minimum(1); Maximum(100); Default(20) })
				Attribute("offset", UInt32, "Rows to skip", func() { Default(0) })
				Attribute("ratio", Float32, "Sampling ratio", func() { Default(0.5) })
				Attribute("verbose", Boolean, "Include details", func() { Default(true) })
				Attribute("formats", ArrayOf(String), "Output formats", func() { Default([]any{"csv"}) })
				Attribute("weights", MapOf(String, Float64), "Weight per metric", func() { Default(map[string]any{"cpu": 1.5}) })
				Attribute("window", window)
				Attribute("windows", ArrayOf(window), "Comparison windows")
				Attribute("by_region", MapOf(String, window), "Window per region")
				Attribute("fallback", window, "Window when none fits", func() { Default(map[string]any{"days": 30}) })
				Required("query")
			})
			Return(func() {
				Attribute("total", Int, "Rows found")
				Attribute("page_size", Int, "Rows per page", func() { Default(20) })
				Required("total")
			})
		})
	})
	Service("usage", func() {
		Agent("reporter", "Report on usage.", func() { Use(reports) })
	})
}
