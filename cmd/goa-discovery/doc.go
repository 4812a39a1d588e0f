// Command goa-discovery generates typed tool-discovery packages from a Goa-style
// design, ranks and evaluates tool search on a catalog, reports how stored
// runs discovered and called tools, and which calls the runtime refused,
// and imports and diffs MCP servers. The tool registry's server and
// operator commands are goa-discovery-registry, in the registry server's
// module (registry/service), so that a module taking this command
// as a tool does not require Redis, Prometheus or OTLP.
//
// Usage:
//
//	goa-discovery gen [-o DIR] [-v] [--debug] DESIGN_IMPORT_PATH
//	goa-discovery search --tools FILE [--limit N] QUERY...
//	goa-discovery search --tools FILE --queries FILE [--json]
//	goa-discovery search (--mcp-command "CMD ARGS" | --mcp-url URL) [--queries FILE] ...
//	goa-discovery report [--json] RUN_FILE_OR_DIR...
package main
