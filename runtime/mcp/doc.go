// Package mcp connects agents to MCP servers, on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): their tools are searched,
// filtered by run policy, validated and called like any other tool.
//
// # Sessions
//
// Connect opens a Session to one server under the name the design gives it,
// through a Transport: Command (stdio: a program started as a child
// process), HTTP (streamable HTTP: a URL and an *http.Client, whose
// transport carries the authentication) or InMemory (an SDK server in this
// process). A session holds one connection at a time; when it fails (the
// server exits, the connection drops, a call times out) the call gets a
// *CallError and the next use connects again. Limits bound what the server
// may send (tools, pages and bytes of a list, the bytes of each message as
// it is read, schema size, depth and inlined size, result size); exceeding
// one is a *LimitError.
//
// # Names
//
// MCP tool names are free-form. A tool the server lists as name is the
// runtime tool "<toolset>.<ToolName(name)>": ToolName is the runtime's one
// portable-name mapping (discovery.PortableNameWithin) at the length of a
// tool name, so "github.create_issue" becomes "github_create_issue" and the
// model sees "<toolset>_github_create_issue". Two names of one server that
// map to one tool name fail the list with a *discovery.CollisionError. A call
// always goes out under the server's own name.
//
// # Declared toolsets
//
// A toolset whose tools the design declares (FromExternalMCP with tools) is
// registered with RegisterToolset(ctx, rt, session, DeclaredToolset{Schema,
// Specs}), Schema and Specs being the generated toolset package's Toolset()
// and Specs(). Registration reads the server's list and fails with a
// *MismatchError when a declared tool is missing or its payload or result
// schema differs from the server's inputSchema or outputSchema, compared
// in a canonical JSON Schema form (schema.go: annotations, a draft-07 or
// 2020-12 $schema, spellings and default-valued keywords do not count, and
// a subschema stated once under $defs and referred to with $ref is the
// same subschema stated in place, schemarefs.go; a
// declared inputSchema may forbid additional properties the server's
// allows, and a property declared Any matches whatever the server states
// for it); the error names the tool and the first difference as a JSON
// Pointer. Differences lists every difference of a declared toolset and
// the server's list, in the same comparison (goa-discovery mcp diff). The toolset is then a local toolset of the
// runtime: agents list its tools as immediate or deferred, the runtime
// validates arguments with the declared codecs before the call is sent, and
// structuredContent is decoded with the declared result codec.
//
// # Dynamic sources
//
// A toolset whose tools are whatever the server lists (FromExternalMCP
// without tools) is a Source, registered with RegisterSource(rt, session,
// toolset) under the server's name. An agent names it with
// runtime.MCPToolset{Server: server, Toolset: toolset, Deferred: true}
// (AgentRegistration.MCPToolsets); the runtime reads it once per planning
// step, as it reads a registry (a Source is a runtime.RegistryClient), and
// a call is bound to the list it was admitted under (the token is the
// list's fingerprint). A read sends tools/list (every page) unless the
// server promised notifications/tools/list_changed and none arrived since
// the last read. An agent that used a declared and a dynamic toolset of one
// server would see each declared tool twice; gen refuses it.
//
// # Call records
//
// The runtime records a call of either kind of MCP tool with source kind
// runtime.SourceMCP and the server's name (runtime.ToolSource.Server): a
// declared toolset is registered with runtime.ToolsetRegistration.MCPServer,
// and a Source is a runtime.MCPSource.
//
// # Results and errors
//
// A tool with an output schema answers with its structuredContent,
// validated against that schema; any other tool with the text of its
// content (its content blocks as JSON when some block is not text). A
// result with isError, a protocol error, a timeout, a lost connection, an
// invalid or oversized result all become a *CallError, which the runtime
// hands the model as an error result: its text names the server and the
// tool and never a command line, a URL or an address.
//
// # Generated packages
//
// gen writes a package per MCP toolset of a design, with the server's name
// (Server) and a Register that binds the toolset to a session of that
// server. Per server, an application calls:
//
//	s, err := mcp.Connect(ctx, issues.Server, mcp.HTTP(url, client))
//	err = issues.Register(ctx, rt, s) // declared: RegisterToolset(ctx, rt, s, DeclaredToolset{Schema: issues.Toolset(), Specs: issues.Specs()})
//	err = github.Register(ctx, rt, s) // dynamic: RegisterSource(rt, s, github.Name)
//
// Both Registers have one signature.
//
// Each Register refuses a session of another server than the design's with
// a *ServerError (CheckServer) before it registers anything.
//
// The SDK decodes a server's schemas into Go values before this package
// sees them, so an integer beyond 2^53 in a server's schema reaches it
// rounded.
package mcp
