package tools

// Strict decoding of the wire records. Registry input arrives from other
// processes, so a record is decoded exactly or not at all: every key must be
// one of the record's JSON field names, spelled exactly (encoding/json alone
// matches case-insensitively and drops unknown keys), and no key may appear
// twice.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

type (
	toolsetFields      ToolsetSchema
	toolFields         ToolSchema
	contractFields     Contract
	fieldMetaFields    FieldMeta
	confirmationFields Confirmation
)

// UnmarshalJSON decodes a toolset record strictly (see package docs).
func (ts *ToolsetSchema) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*toolsetFields)(ts), "toolset")
}

// UnmarshalJSON decodes a tool record strictly.
func (t *ToolSchema) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*toolFields)(t), "tool")
}

// UnmarshalJSON decodes a consumer contract strictly.
func (c *Contract) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*contractFields)(c), "contract")
}

// UnmarshalJSON decodes field metadata strictly.
func (f *FieldMeta) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*fieldMetaFields)(f), "field")
}

// UnmarshalJSON decodes a confirmation strictly.
func (c *Confirmation) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*confirmationFields)(c), "confirmation")
}

// decodeRecord checks the keys of the JSON object data against the JSON
// field names of the struct v points to, then decodes data into v.
func decodeRecord(data []byte, v any, what string) error {
	if err := checkKeys(data, jsonNames(reflect.TypeOf(v).Elem())); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	return nil
}

func checkKeys(data []byte, allowed []string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("%w: want a JSON object", ErrInvalidJSON)
	}
	seen := make(map[string]bool, len(allowed))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidJSON, err)
		}
		key, _ := tok.(string)
		if !contains(allowed, key) {
			return fmt.Errorf("unknown field %q (want one of %s)", key, strings.Join(allowed, ", "))
		}
		if seen[key] {
			return fmt.Errorf("%w: duplicate field %q", ErrInvalidJSON, key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return fmt.Errorf("%w: field %q: %w", ErrInvalidJSON, key, err)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonNames lists the JSON names of a struct type's exported fields.
func jsonNames(t reflect.Type) []string {
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}
