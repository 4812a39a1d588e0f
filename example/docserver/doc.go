// Package docserver is the product documentation's MCP server of the
// example: the server the design's Manual toolset (FromExternalMCP("docs",
// "docs")) is declared against, which a real application would reach over
// the network. It is built on the official Go SDK, lists search_docs and
// read_doc with the schemas its own authors wrote (the generated docs.Register
// compares them with the design's), and answers from a few pages held in
// memory.
//
// The quickstart (example/cmd/assistant) serves it over streamable HTTP on
// 127.0.0.1; tests connect it in memory.
package docserver
