// Command goa-discovery-registry serves the tool registry over HTTP
// (serve), with the embedded store or as a node of a cluster on Redis,
// and inspects and steers a running one (ls, show, calls, withdraw).
//
// It is the command of the registry server's module
// (github.com/goa-discovery/goa-discovery/registry/service), apart
// from the goa-discovery command, so that a module that generates, searches
// and imports MCP servers does not require Redis, Prometheus or OTLP:
//
//	go install github.com/goa-discovery/goa-discovery/registry/service/cmd/goa-discovery-registry@latest
//	goa-discovery-registry serve --addr 127.0.0.1:8080 --data ./registry-data --insecure
//
// docs/cli.md lists its flags; docs/registry.md says how to run and
// operate a registry.
package main
