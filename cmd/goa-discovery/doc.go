// Command goa-discovery generates typed tool-discovery packages from a Goa-style
// design, ranks and evaluates tool search on a catalog, serves a tool
// registry and inspects and steers a running one, and reports how stored
// runs discovered and called tools, and which calls the runtime refused.
//
// Usage:
//
//	goa-discovery gen [-o DIR] [-v] [--debug] DESIGN_IMPORT_PATH
//	goa-discovery search --tools FILE [--limit N] QUERY...
//	goa-discovery search --tools FILE --queries FILE [--json]
//	goa-discovery search (--mcp-command "CMD ARGS" | --mcp-url URL) [--queries FILE] ...
//	goa-discovery registry serve --addr ADDR [--data DIR] [--log-format json] [--metrics-addr ADDR]
//	goa-discovery registry ls|show TOOLSET[@VERSION]|calls [--pending]|withdraw TOOLSET@VERSION --url URL
//	goa-discovery report [--json] RUN_FILE_OR_DIR...
package main
