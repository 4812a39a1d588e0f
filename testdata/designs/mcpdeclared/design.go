// Package mcpdeclared is a golden design: the tools of an external MCP
// server declared with their schemas, one of them deferred by name.
package mcpdeclared

import (
	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

// Design declares the design; run it with designtest.Run.
func Design() {
	FileInfo := Type("FileInfo", func() {
		Attribute("name", String, "File name")
		Attribute("size", Int64, "Size in bytes")
		Required("name", "size")
	})
	Files := Toolset(FromExternalMCP("filesystem", "files"), func() {
		Description("Files of the workspace")
		Tool("read_file", "Read the text of a file", func() { // answers with text: no Return
			Args(func() {
				Attribute("path", String, "Path of the file")
				Required("path")
			})
		})
		Tool("list_directory", "List the files of a directory", func() {
			Args(func() {
				Attribute("path", String, "Path of the directory")
				Required("path")
			})
			Return(func() { // an MCP result is an object
				Attribute("entries", ArrayOf(FileInfo), "Files of the directory")
				Required("entries")
			})
		})
	})
	Service("workspace", func() {
		Agent("editor", "Read and list workspace files.", func() {
			Use(Files, func() { Deferred("read_file") }) // list_directory stays immediate
		})
	})
}
