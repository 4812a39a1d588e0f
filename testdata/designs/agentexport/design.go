// Package agentexport is a golden design: an agent exports a toolset whose
// tools run it, and another agent uses that toolset.
package agentexport

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	research := Toolset("research", func() {
		Description("Research done by the researcher agent")
		Tool("investigate", "Investigate a topic and summarize the findings", func() {
			Args(func() {
				Attribute("topic", String, "Topic to investigate")
				Required("topic")
			})
			Return(String, "Summary of the findings")
		})
	})
	Service("research", func() {
		Agent("researcher", "Research a topic on the web.", func() {
			Export(research)
		})
		Agent("writer", "Write reports.", func() {
			Use(research)
		})
	})
}
