// Command goa-discovery generates typed tool-discovery packages from a Goa-style
// design, ranks and evaluates tool search on a catalog, and serves a tool
// registry.
//
// Usage:
//
//	goa-discovery gen [-o DIR] [-v] [--debug] DESIGN_IMPORT_PATH
//	goa-discovery search --tools FILE [--limit N] QUERY...
//	goa-discovery search --tools FILE --queries FILE [--json]
//	goa-discovery search (--mcp-command "CMD ARGS" | --mcp-url URL) [--queries FILE] ...
//	goa-discovery registry serve --addr ADDR [--data DIR]
package main
