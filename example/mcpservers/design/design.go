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

// Workspace declares two of @modelcontextprotocol/server-filesystem's tools
// with their schemas (2026.8.31): registration checks them against the
// server's list, canonically, so the server's $schema, its descriptions and
// the additionalProperties false that gen adds to the arguments do not
// count, and the agent defers read_text_file by name.
var Workspace = Toolset(FromExternalMCP("filesystem", "workspace"), func() {
	Description("Files of the workspace, with declared schemas")
	Tool("read_text_file", "Read the text of a workspace file", func() {
		Args(func() {
			Attribute("path", String, "Path of the file")
			Attribute("head", Float64, "Read only the first N lines")
			Attribute("tail", Float64, "Read only the last N lines")
			Required("path")
		})
		Return(func() {
			Attribute("content", String, "Text of the file")
			Required("content")
		})
	})
	Tool("list_directory", "List the files and directories of a workspace directory", func() {
		Args(func() {
			Attribute("path", String, "Path of the directory")
			Required("path")
		})
		Return(func() {
			Attribute("content", String, "One line per entry, [FILE] or [DIR] and its name")
			Required("content")
		})
	})
})

var _ = Service("lab", func() {
	Agent("tinkerer", "Try the tools the MCP servers list.", func() {
		Use(Everything, func() { Deferred() })
		Use(Filesystem, func() { Deferred() })
	})
	Agent("reader", "Read the workspace through its declared tools.", func() {
		Use(Workspace, func() { Deferred("read_text_file") }) // list_directory stays immediate
	})
})
