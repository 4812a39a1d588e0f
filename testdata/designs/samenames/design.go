// Package samenames is a golden design: a registry, a toolset, a service and
// an agent that share one name, so that the agent package imports two
// packages of its own name.
package samenames

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	registry := Registry("notes", func() { URL("https://notes.example.com") })
	notes := Toolset("notes", func() {
		Tool("add", "Add a note", func() {
			Args(func() { Attribute("text", String, "Note text"); Required("text") })
		})
	})
	Service("notes", func() {
		Agent("notes", "Take notes.", func() {
			Use(notes, func() { Deferred() })
			Use(registry, func() { Deferred() })
		})
	})
}
