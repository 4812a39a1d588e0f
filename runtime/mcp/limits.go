package mcp

import (
	"encoding/json"
	"fmt"
)

// Limits bound what a server may send. A server that sends more fails
// with a *LimitError naming what was too large; nothing is truncated.
type Limits struct {
	// MaxTools bounds the tools one tools/list (all pages) may return.
	MaxTools int
	// MaxPages bounds the pages of one tools/list.
	MaxPages int
	// MaxSchemaBytes bounds each input and output schema, as compact
	// JSON.
	MaxSchemaBytes int
	// MaxSchemaDepth bounds the nesting of objects and arrays in each
	// schema.
	MaxSchemaDepth int
	// MaxResultBytes bounds the result of one call, as the model would
	// read it.
	MaxResultBytes int
	// MaxSchemaNodes bounds the JSON values of each schema once its
	// references to its definitions are inlined, as Session.Check and
	// Session.Differences compare it (a definition referred to from n
	// places is counted n times). It applies to the declared schema and
	// to the server's.
	MaxSchemaNodes int
	// MaxMessageBytes bounds each message a server sends, counted as it
	// is read, before it is decoded: a line over stdio, a response body or
	// an SSE event over streamable HTTP.
	MaxMessageBytes int
	// MaxListBytes bounds one tools/list read, all pages, counted as the
	// JSON of the tools listed. A dynamic source keeps the lists it read
	// last (to check calls admitted under them) only while together they
	// hold at most twice MaxListBytes; the latest list is always kept.
	MaxListBytes int
}

// DefaultLimits are the limits of a session that sets none.
var DefaultLimits = Limits{
	MaxTools:        2000,
	MaxPages:        100,
	MaxSchemaBytes:  64 << 10,
	MaxSchemaDepth:  32,
	MaxResultBytes:  1 << 20,
	MaxSchemaNodes:  100_000,
	MaxMessageBytes: 16 << 20,
	MaxListBytes:    8 << 20,
}

// withDefaults fills zero fields from DefaultLimits and refuses negative
// ones.
func (l Limits) withDefaults() (Limits, error) {
	fields := []struct {
		name string
		v    *int
		def  int
	}{
		{"MaxTools", &l.MaxTools, DefaultLimits.MaxTools},
		{"MaxPages", &l.MaxPages, DefaultLimits.MaxPages},
		{"MaxSchemaBytes", &l.MaxSchemaBytes, DefaultLimits.MaxSchemaBytes},
		{"MaxSchemaDepth", &l.MaxSchemaDepth, DefaultLimits.MaxSchemaDepth},
		{"MaxResultBytes", &l.MaxResultBytes, DefaultLimits.MaxResultBytes},
		{"MaxSchemaNodes", &l.MaxSchemaNodes, DefaultLimits.MaxSchemaNodes},
		{"MaxMessageBytes", &l.MaxMessageBytes, DefaultLimits.MaxMessageBytes},
		{"MaxListBytes", &l.MaxListBytes, DefaultLimits.MaxListBytes},
	}
	for _, f := range fields {
		switch {
		case *f.v < 0:
			return l, fmt.Errorf("mcp: limits: %s is negative (%d)", f.name, *f.v)
		case *f.v == 0:
			*f.v = f.def
		}
	}
	return l, nil
}

// schemaBytes encodes a schema the SDK decoded and checks its size and
// depth. which is "inputSchema" or "outputSchema".
func (s *Session) schemaBytes(tool, which string, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%w: mcp server %q tool %q: %s: %w", ErrCatalog, s.server, tool, which, err)
	}
	if len(raw) > s.limits.MaxSchemaBytes {
		return nil, &LimitError{Server: s.server, Tool: tool, What: which + " bytes", Limit: s.limits.MaxSchemaBytes, Got: len(raw)}
	}
	if d := depth(v); d > s.limits.MaxSchemaDepth {
		return nil, &LimitError{Server: s.server, Tool: tool, What: which + " depth", Limit: s.limits.MaxSchemaDepth, Got: d}
	}
	return raw, nil
}

// checkExpansion checks that a schema, inlined for a comparison, stays
// within MaxSchemaNodes. which is "inputSchema" or "outputSchema"; declared
// says whether the schema is the declared one rather than the server's.
func (s *Session) checkExpansion(tool, which string, raw json.RawMessage, declared bool) error {
	if len(raw) == 0 {
		return nil
	}
	v, err := decodeNumbers(raw)
	if err != nil {
		return fmt.Errorf("mcp server %q: tool %q: %s: %w", s.server, tool, which, err)
	}
	n, ok := expandedNodes(v, s.limits.MaxSchemaNodes)
	if ok {
		return nil
	}
	lerr := &LimitError{Server: s.server, Tool: tool, What: which + " nodes once references are inlined", Limit: s.limits.MaxSchemaNodes, Got: n}
	if declared {
		return fmt.Errorf("declared %s: %w", which, lerr)
	}
	return lerr
}

// depth returns the nesting of objects and arrays in a decoded JSON value:
// 0 for a scalar, 1 for a flat object.
func depth(v any) int {
	deepest := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			deepest = max(deepest, depth(e))
		}
	case []any:
		for _, e := range v {
			deepest = max(deepest, depth(e))
		}
	default:
		return 0
	}
	return deepest + 1
}
