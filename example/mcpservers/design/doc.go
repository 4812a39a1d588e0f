// Package design declares an agent over the tools of two third-party MCP
// servers, read from their tools/list at run time.
//
// Generate its packages into example/mcpservers/gen with:
//
//	go run ./cmd/goa-discovery gen -o example/mcpservers/gen github.com/goa-discovery/goa-discovery/example/mcpservers/design
package design
