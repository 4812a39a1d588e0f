package mcp

// The wire record of a listed tool. A tool the server lists as "name"
// becomes the runtime tool "<toolset>.<ToolName(name)>" with the server's
// description, title, inputSchema as payload and outputSchema as result,
// kept as the SDK decoded them (re-encoded as JSON, within the limits).

import (
	"context"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Catalog is a server's tool list as one toolset.
type Catalog struct {
	// Toolset is the wire record: the toolset's name and one record per
	// listed tool, in the server's order.
	Toolset tools.ToolsetSchema
	// names maps each tool's runtime name to its MCP name.
	names nameMap
}

// MCPName returns the name the server knows a tool of the catalog by.
func (c *Catalog) MCPName(id tools.Ident) (string, bool) {
	if id.Toolset() != c.Toolset.Name {
		return "", false
	}
	n, ok := c.names[id.Tool()]
	return n, ok
}

// ListCatalog reads the server's whole tool list as the toolset named
// toolset. A name collision, an invalid tool or a limit fails it.
func (s *Session) ListCatalog(ctx context.Context, toolset string) (*Catalog, error) {
	c, _, err := s.listCatalog(ctx, toolset)
	return c, err
}

func (s *Session) listCatalog(ctx context.Context, toolset string) (*Catalog, listState, error) {
	if err := tools.ValidateName(toolset); err != nil {
		return nil, listState{}, fmt.Errorf("mcp server %q: toolset: %w", s.server, err)
	}
	list, st, err := s.listTools(ctx)
	if err != nil {
		return nil, st, err
	}
	c, err := s.catalogOf(toolset, list)
	return c, st, err
}

// catalogOf converts a tool list.
func (s *Session) catalogOf(toolset string, list []*sdk.Tool) (*Catalog, error) {
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = t.Name
	}
	m, err := newNameMap(s.server, names)
	if err != nil {
		return nil, err
	}
	c := &Catalog{Toolset: tools.ToolsetSchema{Name: toolset, Tools: make([]tools.ToolSchema, len(list))}, names: m}
	for i, t := range list {
		rec, err := s.record(toolset, t)
		if err != nil {
			return nil, err
		}
		c.Toolset.Tools[i] = rec
	}
	return c, nil
}

// record converts one listed tool.
func (s *Session) record(toolset string, t *sdk.Tool) (tools.ToolSchema, error) {
	id, err := tools.NewIdent(toolset, ToolName(t.Name))
	if err != nil {
		return tools.ToolSchema{}, fmt.Errorf("%w: mcp server %q tool %q: %w", ErrCatalog, s.server, t.Name, err)
	}
	rec := tools.ToolSchema{Name: id, Title: t.Title, Description: t.Description}
	if rec.Title == "" && t.Annotations != nil {
		rec.Title = t.Annotations.Title
	}
	if t.InputSchema == nil {
		return rec, fmt.Errorf("%w: mcp server %q tool %q has no inputSchema", ErrCatalog, s.server, t.Name)
	}
	if rec.Payload, err = s.schemaBytes(t.Name, "inputSchema", t.InputSchema); err != nil {
		return rec, err
	}
	if t.OutputSchema != nil {
		if rec.Result, err = s.schemaBytes(t.Name, "outputSchema", t.OutputSchema); err != nil {
			return rec, err
		}
	}
	if err := rec.Validate(); err != nil {
		return rec, fmt.Errorf("%w: mcp server %q tool %q: %w", ErrCatalog, s.server, t.Name, err)
	}
	return rec, nil
}
