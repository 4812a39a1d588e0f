package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ModelSchema returns the payload schema the model sees: the record's
// payload schema without its server-only fields, which are removed from
// "properties" and "required". A record without server-only fields gets its
// payload schema back byte for byte; otherwise the result is compact JSON
// whose top-level members and properties are sorted by name, each value
// compacted in its authored order: the same bytes for the same record.
//
// A server-only field that is not a property of the payload schema, or that
// is listed twice, is an error matching tools.ErrInvalidSchema: the contract
// would promise something the schema does not describe.
func ModelSchema(ts *tools.ToolSchema) (json.RawMessage, error) {
	fields := serverOnly(ts.Contract)
	if len(fields) == 0 {
		return bytes.Clone(ts.Payload), nil
	}
	if _, err := tools.Canonicalize(ts.Payload); err != nil {
		return nil, fmt.Errorf("%w: tool %q: payload: %w", tools.ErrInvalidSchema, ts.Name, err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(ts.Payload, &doc); err != nil {
		return nil, fmt.Errorf("%w: tool %q: payload is not a JSON object: %w", tools.ErrInvalidSchema, ts.Name, err)
	}
	var props map[string]json.RawMessage
	if raw, ok := doc["properties"]; ok {
		if err := json.Unmarshal(raw, &props); err != nil {
			return nil, fmt.Errorf("%w: tool %q: payload \"properties\" is not an object: %w", tools.ErrInvalidSchema, ts.Name, err)
		}
	}
	var required []string
	if raw, ok := doc["required"]; ok {
		if err := json.Unmarshal(raw, &required); err != nil {
			return nil, fmt.Errorf("%w: tool %q: payload \"required\" is not an array of strings: %w", tools.ErrInvalidSchema, ts.Name, err)
		}
	}
	for i, f := range fields {
		if slices.Contains(fields[:i], f) {
			return nil, fmt.Errorf("%w: tool %q: server-only field %q listed twice", tools.ErrInvalidSchema, ts.Name, f)
		}
		if _, ok := props[f]; !ok {
			return nil, fmt.Errorf("%w: tool %q: server-only field %q is not a payload property", tools.ErrInvalidSchema, ts.Name, f)
		}
		delete(props, f)
	}
	required = slices.DeleteFunc(required, func(name string) bool { return slices.Contains(fields, name) })
	if err := setMember(doc, "properties", props); err != nil {
		return nil, err
	}
	if len(required) == 0 {
		delete(doc, "required")
	} else if err := setMember(doc, "required", required); err != nil {
		return nil, err
	}
	return encodeCompact(doc)
}

func setMember(doc map[string]json.RawMessage, key string, v any) error {
	raw, err := encodeCompact(v)
	if err != nil {
		return err
	}
	doc[key] = raw
	return nil
}

// encodeCompact encodes v without HTML escaping, so that "<" in a
// description stays as the author wrote it.
func encodeCompact(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode model schema: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
