// Package gateway serves many MCP servers to one MCP client through search.
//
// A Gateway fronts a set of upstream MCP servers (Upstream: a name, a
// mcp.Transport, allow and deny lists, immediate tools). Each client
// session it serves (NewServer for one client, as over stdio; Handler for
// streamable HTTP, one session per client) lists the upstreams' immediate
// tools and the discovery tool, tool_search, and nothing else until it
// searches:
//
//   - tool_search takes "query" (keywords) and/or "names" (exact tool
//     names), the arguments of the runtime's discovery tool
//     (discovery.ParseCall). The gateway reads the lists of the upstreams
//     (starting those not started yet), ranks their tools with the
//     runtime's one search index (runtime/toolsearch) and answers with the
//     matching tools: names, descriptions and input schemas, plus the
//     servers that could not be read, each with its error.
//   - In ModeList and ModeBoth, the tools a session found join its
//     tools/list, and the session receives notifications/tools/list_changed.
//   - In ModeCall and ModeBoth, the session also lists call_tool (the
//     runtime's dispatcher, discovery.ParseDispatch: "name" and
//     "arguments"), which calls a found tool. In ModeCall the session's
//     tools/list never changes, so a host that puts its tool declarations
//     first in its prompt keeps its prompt cache.
//
// # Names and policy
//
// A tool the upstream server lists as name reaches the client as
// "<server>_<tool>", the model-facing name of the runtime tool
// "<server>.<mcp.ToolName(name)>" (discovery.ModelName). Two tools of one
// server that map to one name fail that server's list
// (*discovery.CollisionError, the check of runtime/mcp); a tool of a later
// server that takes a name already taken by an earlier one, a name reserved
// for discovery or longer than discovery.MaxModelNameLength is refused and
// named in every search's answer. An upstream's Deny list removes tools
// and its Allow list, when not empty, keeps only the tools it names (the
// server's own tool names); a tool either removes is never indexed, found,
// listed or called.
//
// # Calls
//
// A call of a found or immediate tool, directly or through call_tool, is
// validated against the tool's input schema (the runtime's contract
// compiler, runtime/toolregistry/contract) before it is sent upstream under
// the server's own tool name; the upstream's result is returned as it is. A
// session may call only the tools it lists or found. Every failure is a
// tool result with isError whose text names the server and the tool
// (mcp.CallError).
//
// # Registry toolsets
//
// An Upstream with a Registry is a toolset of a tool registry: Name is the
// toolset's name, and its list is the toolset's current registration, read
// through the runtime's registry client (runtime.RegistryClient,
// runtime/registry/runtimeclient over HTTP), with the version pinned by
// Version checked. Its tools have the same portable names
// ("<toolset>_<tool>"), Allow, Deny and Immediate lists (by the tools' own
// names), search and list_changed as an MCP server's. A read whose
// registration token is new is indexed again, as a changed MCP list is;
// the registry sends no notification, so a registration is read again at
// searches, after ListInterval. A call, validated against the tool's input
// schema first, goes through the client's CallTool under the token of the
// registration the tool was listed under, with a call ID of its own; the
// tool's JSON result, checked against its result schema, is the call's
// text (and its structured content when the tool declares a result
// schema).
//
// With AllToolsets, one upstream serves every toolset the registry holds
// (ListToolsets): Name is the registry's name, the tools keep their
// "<toolset>_<tool>" names, the lists name them "toolset.tool", each call
// carries its own toolset's token, and a toolset published or withdrawn
// later is indexed again at a search.
//
// # Configuration
//
// ParseConfig reads the mcpServers file MCP hosts use ("command", "args",
// "env", "cwd" for stdio; "url", "headers" for streamable HTTP) with the
// gateway's "allow", "deny" and "immediate" lists, strictly: an unknown or
// repeated key, a wrong type, an entry that does not say exactly how to
// reach its server is an ErrConfig naming the server and the key.
// Config.Upstreams turns it into Upstreams, in the order of their names.
// goa-discovery mcp gateway is this package behind that file.
//
// # Upstream lifecycle
//
// An upstream starts lazily: at the first search, or at the first
// tools/list or tools/call of a session when it has immediate tools. Its
// mcp.Session connects again (a command is started again) at the use after
// a failure, so a server that crashed gives the calls under way an error
// naming it, the next call restarts it, and the other servers keep working.
// A search answers from the lists read so far, waiting only for the
// upstreams not read yet or whose last read failed; it then reads again,
// in the background, each list older than Options.ListInterval, through an
// mcp.Source: a server that promised notifications/tools/list_changed is
// read again only after one (or after a reconnection), any other server
// every time. A server's notifications/tools/list_changed makes the
// gateway read its list again at once, without waiting for a search. A
// list that changed is indexed again and the sessions whose tools/list it
// changes (a tool they found or list removed or changed) receive
// list_changed; the others are not told.
//
// # Notifications of a forwarded call
//
// The progress notifications of a forwarded call reach the client under
// the client's progress token (the call to the server carries one of the
// gateway's own), and the server's log messages reach the client sessions
// with a call of that server under way, under the logger "<server>" or
// "<server>/<logger>", filtered by the level each client asked for.
//
// # The design's gateway
//
// A design's MCPGateway generates a package whose New builds a Gateway of
// the toolsets it Uses: a Goa service's MCP tools (FromMCP) through an
// in-memory transport of its generated server, external MCP servers
// through the transports the application gives, registry toolsets through
// the registry clients it gives. Upstream.ImmediateAll and
// Upstream.Declared carry what the design says: a dynamic toolset used
// without Deferred, and the declared tools (schemas included) of a
// declared external toolset.
package gateway
