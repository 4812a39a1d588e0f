package mcp

// MCP tool names are free-form ("github.create_issue", "repo/list", names of
// any length); the runtime's tool names are one segment of a tools.Ident.
// The mapping is the runtime's one: discovery.PortableNameWithin at the
// segment's length, so a name a provider would accept stays as it is.

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ToolName returns the name the runtime knows the MCP tool mcpName by: the
// tool segment of its identifier. "github.create_issue" becomes
// "github_create_issue"; a valid name stays as it is.
func ToolName(mcpName string) string {
	return discovery.PortableNameWithin(mcpName, tools.MaxNameLength)
}

// nameMap maps the runtime's tool names of one server's tools to the MCP
// names calls go out under.
type nameMap map[string]string

// newNameMap maps each listed name, refusing an empty name, a name listed
// twice and two names that map to one tool name (a
// *discovery.CollisionError).
func newNameMap(server string, names []string) (nameMap, error) {
	m := make(nameMap, len(names))
	listed := make(map[string]bool, len(names))
	for _, n := range names {
		if n == "" {
			return nil, fmt.Errorf("%w: mcp server %q lists a tool with no name", ErrCatalog, server)
		}
		if listed[n] {
			return nil, fmt.Errorf("%w: mcp server %q lists tool %q twice", ErrCatalog, server, n)
		}
		listed[n] = true
		p := ToolName(n)
		if other, taken := m[p]; taken {
			return nil, fmt.Errorf("%w: mcp server %q: %w", ErrCatalog, server, &discovery.CollisionError{Portable: p, Names: [2]string{other, n}})
		}
		m[p] = n
	}
	return m, nil
}
