// Package deferrednamed is a golden design: an agent that defers some tools
// of a toolset by name and keeps the others immediate.
package deferrednamed

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	files := Toolset("files", func() {
		Description("Files in a workspace")
		Tool("read", "Read a file", func() {
			Args(func() { Attribute("path", String, "File path"); Required("path") })
			Return(String, "File content")
		})
		Tool("write", "Write a file", func() {
			Args(func() {
				Attribute("path", String, "File path")
				Attribute("content", String, "New content")
				Required("path", "content")
			})
		})
		Tool("delete", "Delete a file", func() {
			Args(func() { Attribute("path", String, "File path"); Required("path") })
		})
		Tool("archive", "Archive a directory into a zip file", func() {
			Args(func() { Attribute("dir", String, "Directory path"); Required("dir") })
			Return(String, "Archive path")
		})
	})
	Service("workspace", func() {
		Agent("editor", "Edit workspace files.", func() {
			Use(files, func() {
				Deferred("archive")
				Deferred("delete")
			})
		})
	})
}
