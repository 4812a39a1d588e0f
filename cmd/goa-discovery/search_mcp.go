package main

// The catalog of a live MCP server for goa-discovery search: its whole
// tools/list, each tool known by its MCP name (the names a query set's gold
// lists give), within runtime/mcp's default limits.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// mcpServerName is the name the command's session gives the server.
const mcpServerName = "server"

// readMCPServer connects through t, lists the server's tools and closes
// the connection. How the connection ends does not matter to the list: a
// stdio server that does not exit when its input closes is terminated, and
// its exit status is not a failure of the search.
func readMCPServer(t mcp.Transport) ([]toolsearch.Document, error) {
	ctx := context.Background()
	s, err := mcp.Connect(ctx, mcpServerName, t)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	list, err := s.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	docs := make([]toolsearch.Document, len(list))
	for i, tool := range list {
		params, err := json.Marshal(tool.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: inputSchema: %w", tool.Name, err)
		}
		docs[i] = toolsearch.Document{Name: tool.Name, Title: tool.Title, Description: tool.Description, Parameters: params}
		if _, err := toolsearch.Count(docs[i]); err != nil {
			return nil, fmt.Errorf("tool %q: %w", tool.Name, err)
		}
	}
	return docs, nil
}
