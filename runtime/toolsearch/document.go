package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Document is a tool as search sees it: its names and the texts its words
// come from. It is the run-time input of [Count] and [NewIndexFromDocuments].
type Document struct {
	// Name is the tool's catalog name, unique in an index. Required.
	Name string
	// Alias is the name the model calls the tool by, when it differs from
	// Name; empty otherwise.
	Alias string
	// Title is the tool's human-readable title.
	Title string
	// Description is the tool's description.
	Description string
	// Parameters is the JSON Schema of the tool's arguments (an object or a
	// boolean schema; empty or null for none). Property names, nested ones
	// too, count as parameter names; their titles, descriptions and
	// enumerated string values as parameter descriptions.
	Parameters json.RawMessage
	// SearchTerms are extra words to find the tool by.
	SearchTerms []string
}

// ErrInvalidDocument is wrapped by every error that rejects a [Document] or
// its [Counts].
var ErrInvalidDocument = errors.New("invalid tool document")

// schemaTexts calls add with every parameter name and parameter text of a
// JSON Schema.
func schemaTexts(raw json.RawMessage, add func(Field, string)) error {
	if len(raw) == 0 {
		return nil
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	switch root.(type) {
	case nil, bool, map[string]any:
	default:
		return fmt.Errorf("parameters: JSON Schema must be an object or a boolean, got %s", jsonKind(root))
	}
	walkSchema(root, add)
	return nil
}

// subschemaKeys name the keywords whose value is one subschema;
// subschemaListKeys a list of them; subschemaMapKeys a map of them whose keys
// are not parameter names.
var (
	subschemaKeys = [...]string{"items", "additionalProperties", "not", "contains",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "if", "then", "else"}
	subschemaListKeys = [...]string{"prefixItems", "anyOf", "oneOf", "allOf"}
	subschemaMapKeys  = [...]string{"$defs", "definitions", "patternProperties", "dependentSchemas"}
)

func walkSchema(node any, add func(Field, string)) {
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	for _, key := range [...]string{"title", "description"} {
		if s, ok := m[key].(string); ok {
			add(FieldParamDescription, s)
		}
	}
	if enum, ok := m["enum"].([]any); ok {
		for _, v := range enum {
			if s, ok := v.(string); ok {
				add(FieldParamDescription, s)
			}
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			add(FieldParamName, name)
			walkSchema(sub, add)
		}
	}
	for _, key := range subschemaKeys {
		walkSchema(m[key], add)
	}
	for _, key := range subschemaListKeys {
		if list, ok := m[key].([]any); ok {
			for _, sub := range list {
				walkSchema(sub, add)
			}
		}
	}
	for _, key := range subschemaMapKeys {
		if subs, ok := m[key].(map[string]any); ok {
			for _, sub := range subs {
				walkSchema(sub, add)
			}
		}
	}
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}
