// Package mcpservers runs generated agents over two third-party MCP
// servers from npm, @modelcontextprotocol/server-everything and
// @modelcontextprotocol/server-filesystem, which .ci/run installs. The
// design in mcpservers/design uses both servers' tools as dynamic toolsets,
// deferred (agent tinkerer), and declares two of server-filesystem's tools
// with their schemas as toolset workspace (agent reader, read_text_file
// deferred by name); gen writes its packages into mcpservers/gen
// (committed, and regenerated and compared by .ci/check-example). The tests
// connect the servers over stdio: the tinkerer searches, discovers and
// calls their tools; the workspace toolset registers against the real
// server's list, and the reader finds and calls the deferred tool. They
// skip where node or the servers are absent, except under CI=true.
package mcpservers
