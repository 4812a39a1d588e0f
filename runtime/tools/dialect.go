package tools

// This file names the dialect of a schema document for readers that want
// it stated: a generated MCP server lists its tools' schemas with "$schema"
// although the schemas gen writes leave it implicit (2020-12, the dialect
// every reader here assumes).

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// dialectMember is the first member WithDialect writes.
var dialectMember = []byte(`"$schema":"` + SchemaDialect + `"`)

// WithDialect returns schema with "$schema": SchemaDialect as the first
// member of its root object, the other members following as they are. A
// schema that names a dialect already is returned as it is, whichever
// dialect it names: the document says what it means. A schema that is not
// one JSON object is an error matching ErrInvalidSchema.
func WithDialect(schema json.RawMessage) (json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(schema, &members); err != nil || members == nil {
		return nil, fmt.Errorf("%w: the schema is not one JSON object", ErrInvalidSchema)
	}
	if _, ok := members["$schema"]; ok {
		return bytes.Clone(schema), nil
	}
	rest := bytes.TrimSpace(schema)[1:] // after "{": Unmarshal proved an object
	out := make([]byte, 0, len(schema)+len(dialectMember)+2)
	out = append(out, '{')
	out = append(out, dialectMember...)
	if body := bytes.TrimSpace(rest); body[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}

// MustWithDialect is WithDialect for schemas known to be objects when the
// program is built, such as those generated code embeds; it panics on an
// error.
func MustWithDialect(schema json.RawMessage) json.RawMessage {
	out, err := WithDialect(schema)
	if err != nil {
		panic(fmt.Sprintf("tools.MustWithDialect: %v", err))
	}
	return out
}
