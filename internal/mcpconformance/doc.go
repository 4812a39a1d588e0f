// Package mcpconformance holds the programs that the official MCP
// conformance suite (@modelcontextprotocol/conformance, run by
// .ci/steps/mcp-conformance) tests: client, an MCP client built on
// runtime/mcp. The package itself is empty.
package mcpconformance
