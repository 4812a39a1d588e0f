// Package mcpservers runs a generated agent over two third-party MCP
// servers from npm, @modelcontextprotocol/server-everything and
// @modelcontextprotocol/server-filesystem, which .ci/run installs: the
// design in mcpservers/design uses both servers' tools as dynamic toolsets,
// deferred, and gen writes its agent package into mcpservers/gen (committed,
// and regenerated and compared by .ci/check-example). The test connects the
// servers over stdio and has the agent search, discover and call their
// tools. It skips where node or the servers are absent, except under
// CI=true.
package mcpservers
