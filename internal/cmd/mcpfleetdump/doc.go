// Command mcpfleetdump writes testdata/mcpfleet: it installs each server of
// the fleet ([fleet]) from npm at its pinned version into a directory
// outside the repository, starts it offline over stdio (dummy credentials,
// every URL a closed loopback port, HOME an empty temporary directory),
// and writes its tools/list as a catalog that `goa-discovery search
// --tools` reads: one file per server under servers/, tools by their MCP
// names, and the pooled catalog tools.jsonl, each tool named
// "<server>.<tool>" as an agent's MCP toolset names it.
//
//	go run ./internal/cmd/mcpfleetdump -dir ~/.cache/goa-discovery/mcpfleet-search -out testdata/mcpfleet
package main
