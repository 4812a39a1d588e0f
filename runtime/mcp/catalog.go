package mcp

// The wire record of a listed tool. A tool the server lists as "name"
// becomes the runtime tool "<toolset>.<ToolName(name)>" with the server's
// description, title, inputSchema as payload and outputSchema as result,
// kept as the SDK decoded them (re-encoded as JSON, within the limits).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Catalog is a server's tool list as one toolset.
type Catalog struct {
	// Toolset is the wire record: the toolset's name and one record per
	// listed tool, in the server's order.
	Toolset tools.ToolsetSchema
	// Refused are the tools of the list left out of the catalog, each
	// with why: a tool without a valid name or schema never takes the
	// server's other tools down.
	Refused []*RefusedTool
	// Warnings say how a tool's schema was read: a root that states no
	// type, and only object keywords, is read as "type": "object".
	Warnings []string
	// names maps each tool's runtime name to its MCP name.
	names nameMap
}

// RefusedTool is a tool a server lists that its catalog leaves out.
type RefusedTool struct {
	// Server is the server's name in the design, Tool the tool's MCP name.
	Server, Tool string
	// Err says why; it matches ErrCatalog.
	Err error
}

func (r *RefusedTool) String() string {
	return fmt.Sprintf("mcp server %q: tool %q left out: %v", r.Server, r.Tool, r.Err)
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
	c := &Catalog{Toolset: tools.ToolsetSchema{Name: toolset, Tools: make([]tools.ToolSchema, 0, len(list))}, names: m}
	for _, t := range list {
		rec, warning, err := s.record(toolset, t)
		var limit *LimitError
		switch {
		case errors.As(err, &limit):
			return nil, err
		case err != nil:
			c.Refused = append(c.Refused, &RefusedTool{Server: s.server, Tool: t.Name, Err: err})
			delete(c.names, ToolName(t.Name))
			continue
		case warning != "":
			c.Warnings = append(c.Warnings, warning)
		}
		c.Toolset.Tools = append(c.Toolset.Tools, rec)
	}
	return c, nil
}

// objectRoot returns a tool schema whose root states no type and nothing
// but object keywords with "type": "object" (MCP's tool schemas are
// objects), and whether it did; any other schema is returned as it is.
func objectRoot(raw json.RawMessage) (json.RawMessage, bool) {
	v, err := decodeNumbers(raw)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		return raw, false
	}
	if _, typed := m["type"]; typed {
		return raw, false
	}
	for k := range m {
		if !slices.Contains(annotations, k) && !slices.Contains(rootObjectKeywords, k) {
			return raw, false
		}
	}
	m["type"] = "object"
	out, err := json.Marshal(m)
	if err != nil {
		return raw, false
	}
	return out, true
}

// record converts one listed tool; the warning says how its schema was
// read (objectRoot).
func (s *Session) record(toolset string, t *sdk.Tool) (_ tools.ToolSchema, warning string, _ error) {
	rec, err := s.convert(toolset, t)
	if err != nil {
		return rec, "", err
	}
	for _, side := range []struct {
		name string
		raw  *json.RawMessage
	}{{"inputSchema", &rec.Payload}, {"outputSchema", &rec.Result}} {
		if len(*side.raw) == 0 {
			continue
		}
		if fixed, ok := objectRoot(*side.raw); ok {
			*side.raw = fixed
			warning = fmt.Sprintf("mcp server %q tool %q: the root of its %s states no type: read as an object", s.server, t.Name, side.name)
		}
	}
	if err := rec.Validate(); err != nil {
		return rec, "", fmt.Errorf("%w: mcp server %q tool %q: %w", ErrCatalog, s.server, t.Name, err)
	}
	for _, side := range []struct {
		name string
		raw  json.RawMessage
	}{{"inputSchema", rec.Payload}, {"outputSchema", rec.Result}} {
		if ref := remoteRef(side.raw); ref != "" {
			return rec, "", fmt.Errorf("%w: mcp server %q tool %q: %s: $ref %q is to another document: the runtime fetches no schema", ErrCatalog, s.server, t.Name, side.name, ref)
		}
	}
	return rec, warning, nil
}

// remoteRef returns the first "$ref" of a schema that is not to a place
// of the same document ("#..."), or "".
func remoteRef(raw json.RawMessage) string {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"$ref"`)) {
		return ""
	}
	v, err := decodeNumbers(raw)
	if err != nil {
		return ""
	}
	var walk func(any) string
	walk = func(v any) string {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
				return ref
			}
			for _, e := range x {
				if r := walk(e); r != "" {
					return r
				}
			}
		case []any:
			for _, e := range x {
				if r := walk(e); r != "" {
					return r
				}
			}
		}
		return ""
	}
	return walk(v)
}

// convert converts one listed tool to its wire record, not validated.
func (s *Session) convert(toolset string, t *sdk.Tool) (tools.ToolSchema, error) {
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
	return rec, nil
}
