package discovery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// EntryFromSchema turns a tool's wire record into a catalog entry. The
// model knows the tool by the portable form of its identifier
// ("records.lookup" becomes "records_lookup") in the namespace of its
// toolset; its catalog name is the identifier. The parameters are the
// payload schema without the contract's server-only fields, which the
// model never sees nor fills. The record must pass ToolSchema.Validate.
func EntryFromSchema(ts *tools.ToolSchema) (Entry, error) {
	if err := ts.Validate(); err != nil {
		return Entry{}, fmt.Errorf("discovery: entry: %w", err)
	}
	params := ts.Payload
	var terms []string
	if ts.Contract != nil {
		terms = slices.Clone(ts.Contract.SearchTerms)
		if len(ts.Contract.ServerOnlyFields) > 0 {
			p, err := withoutProperties(ts.Payload, ts.Contract.ServerOnlyFields)
			if err != nil {
				return Entry{}, fmt.Errorf("discovery: entry %q: %w", ts.Name, err)
			}
			params = p
		}
	}
	return Entry{
		Snapshot: model.ToolSnapshot{
			Name:        PortableName(string(ts.Name)),
			Description: ts.Description,
			Parameters:  params,
			Namespace:   ts.Name.Toolset(),
		},
		Name:        string(ts.Name),
		Title:       ts.Title,
		SearchTerms: terms,
	}, nil
}

// withoutProperties removes top-level properties from an object schema:
// from "properties" and from "required". The result has its members sorted
// by key.
func withoutProperties(schema json.RawMessage, names []string) (json.RawMessage, error) {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("payload schema: %w", err)
	}
	if raw, ok := root["properties"]; ok {
		var props map[string]json.RawMessage
		if err := json.Unmarshal(raw, &props); err != nil {
			return nil, fmt.Errorf("payload schema properties: %w", err)
		}
		for _, n := range names {
			delete(props, n)
		}
		b, err := marshalJSON(props)
		if err != nil {
			return nil, fmt.Errorf("payload schema properties: %w", err)
		}
		root["properties"] = b
	}
	if raw, ok := root["required"]; ok {
		var required []string
		if err := json.Unmarshal(raw, &required); err != nil {
			return nil, fmt.Errorf("payload schema required: %w", err)
		}
		required = slices.DeleteFunc(required, func(r string) bool { return slices.Contains(names, r) })
		b, err := marshalJSON(required)
		if err != nil {
			return nil, fmt.Errorf("payload schema required: %w", err)
		}
		root["required"] = b
	}
	out, err := marshalJSON(root)
	if err != nil {
		return nil, fmt.Errorf("payload schema: %w", err)
	}
	return out, nil
}

// marshalJSON encodes v without escaping HTML characters, which the model
// would otherwise read as \u003c escapes.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
