// Package mcpconformance holds the programs that the official MCP
// conformance suite (@modelcontextprotocol/conformance, run by
// .ci/steps/mcp-conformance) tests: client, an MCP client built on
// runtime/mcp, and server, the MCP server that goa gen writes for the Goa
// service of server/design, served over streamable HTTP on loopback, or
// (server -gateway) the MCP gateway that goa gen writes for the design. The
// server's generated code (server/gen) is committed; regenerate it from
// internal/mcpconformance/server with
//
//	go run goa.design/goa/v3/cmd/goa gen github.com/goa-discovery/goa-discovery/internal/mcpconformance/server/design -o .
//
// The package itself is empty.
package mcpconformance
