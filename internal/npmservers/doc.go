// Package npmservers finds the MCP servers from npm that tests run over stdio
// (@modelcontextprotocol/server-everything and server-filesystem, which
// .ci/run installs), so that every such test skips or fails the same way.
package npmservers
