package mcpimport

// What gen or the runtime refuses later is refused by import first, with
// the same limits: a tool without a name, a schema past the runtime's
// limits (mcp.DefaultLimits, in mcp.LimitError's words), a definition
// without a name, and text gen cannot write into a comment (a NUL or a
// byte order mark).

import (
	"encoding/json"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// refuseTool returns the problems of t that no schema keyword explains.
func refuseTool(t Tool, server string) Errors {
	var out Errors
	fail := func(schema, pointer, reason string) {
		out = append(out, &Problem{Tool: t.Name, Schema: schema, Pointer: pointer, Reason: reason})
	}
	if t.Name == "" {
		fail("name", "", "a tool with no name: the runtime refuses it")
	}
	for _, x := range []struct{ what, text string }{{"description", t.Description}, {"title", t.Title}} {
		if reason := unwritable(x.text); reason != "" {
			fail(x.what, "", reason)
		}
	}
	for _, side := range []struct {
		name string
		raw  json.RawMessage
	}{{"inputSchema", t.InputSchema}, {"outputSchema", t.OutputSchema}} {
		if len(side.raw) == 0 {
			continue
		}
		if n := len(side.raw); n > mcp.DefaultLimits.MaxSchemaBytes {
			fail(side.name, "", (&mcp.LimitError{Server: server, Tool: t.Name, What: side.name + " bytes", Limit: mcp.DefaultLimits.MaxSchemaBytes, Got: n}).Error())
			continue
		}
		var v any
		if json.Unmarshal(side.raw, &v) != nil {
			continue // reported by the decoder
		}
		if d := mcp.SchemaDepth(v); d > mcp.DefaultLimits.MaxSchemaDepth {
			fail(side.name, "", (&mcp.LimitError{Server: server, Tool: t.Name, What: side.name + " depth", Limit: mcp.DefaultLimits.MaxSchemaDepth, Got: d}).Error())
		}
	}
	return out
}

// unwritable says why gen cannot write a text into a Go comment, or "".
func unwritable(s string) string {
	switch {
	case strings.ContainsRune(s, 0):
		return "a text holding a NUL character: gen cannot write it into a Go comment"
	case strings.ContainsRune(s, '\uFEFF'):
		return "a text holding a byte order mark (U+FEFF): gen cannot write it into a Go comment"
	}
	return ""
}
