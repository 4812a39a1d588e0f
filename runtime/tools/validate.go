package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidSchema is matched by every error that rejects a ToolSchema or a
// ToolsetSchema.
var ErrInvalidSchema = errors.New("invalid tool schema")

// Validate checks the toolset record: a valid name, at least one tool, every
// tool valid and belonging to this toolset, and no tool named twice.
func (ts *ToolsetSchema) Validate() error {
	if err := ValidateName(ts.Name); err != nil {
		return fmt.Errorf("%w: toolset %q: %w", ErrInvalidSchema, ts.Name, err)
	}
	if len(ts.Tools) == 0 {
		return fmt.Errorf("%w: toolset %q has no tools", ErrInvalidSchema, ts.Name)
	}
	seen := make(map[Ident]bool, len(ts.Tools))
	for i := range ts.Tools {
		t := &ts.Tools[i]
		if err := t.Validate(); err != nil {
			return fmt.Errorf("toolset %q: tool %d: %w", ts.Name, i, err)
		}
		if t.Name.Toolset() != ts.Name {
			return fmt.Errorf("%w: toolset %q: tool %q belongs to toolset %q", ErrInvalidSchema, ts.Name, t.Name, t.Name.Toolset())
		}
		if seen[t.Name] {
			return fmt.Errorf("%w: toolset %q: tool %q listed twice", ErrInvalidSchema, ts.Name, t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}

// Validate checks the tool record: a valid name, a payload schema that is a
// JSON object with "type": "object", a result schema that is a JSON object
// when present, and a well-formed contract. It does not compile the
// schemas; CompileSchema does.
func (t *ToolSchema) Validate() error {
	if err := t.Name.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	if err := checkObjectSchema(t.Payload, true); err != nil {
		return fmt.Errorf("%w: tool %q: payload: %w", ErrInvalidSchema, t.Name, err)
	}
	if len(t.Result) > 0 {
		if err := checkObjectSchema(t.Result, false); err != nil {
			return fmt.Errorf("%w: tool %q: result: %w", ErrInvalidSchema, t.Name, err)
		}
	}
	if err := t.Contract.validate(t.Payload); err != nil {
		return fmt.Errorf("%w: tool %q: contract: %w", ErrInvalidSchema, t.Name, err)
	}
	return nil
}

func checkObjectSchema(raw json.RawMessage, wantObjectType bool) error {
	if len(raw) == 0 {
		return errors.New("schema is missing")
	}
	// Canonicalize rejects what encoding/json would quietly accept and
	// fingerprints could not cover: duplicate keys, unpaired surrogates.
	if _, err := Canonicalize(raw); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("schema is not a JSON object: %w", err)
	}
	if !wantObjectType {
		return nil
	}
	var typ string
	if err := json.Unmarshal(doc["type"], &typ); err != nil || typ != "object" {
		return fmt.Errorf(`schema must have "type": "object" at its root, got %s`, orMissing(doc["type"]))
	}
	return nil
}

func orMissing(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "no type"
	}
	return string(raw)
}

func (c *Contract) validate(payload json.RawMessage) error {
	if c == nil {
		return nil
	}
	for i, term := range c.SearchTerms {
		if strings.TrimSpace(term) == "" {
			return fmt.Errorf("search term %d is empty", i)
		}
	}
	for i, f := range c.Fields {
		if f.Path == "" || !strings.HasPrefix(f.Path, "/") {
			return fmt.Errorf("field %d: path %q is not a JSON Pointer", i, f.Path)
		}
	}
	for k := range c.RequiredLabels {
		if k == "" {
			return errors.New("required label with an empty name")
		}
	}
	if c.PaginationPartner != "" {
		if err := c.PaginationPartner.Validate(); err != nil {
			return fmt.Errorf("pagination partner: %w", err)
		}
	}
	if len(c.ServerOnlyFields) > 0 {
		props, err := topLevelProperties(payload)
		if err != nil {
			return err
		}
		seen := make(map[string]bool, len(c.ServerOnlyFields))
		for i, f := range c.ServerOnlyFields {
			switch {
			case f == "":
				return fmt.Errorf("server-only field %d is empty", i)
			case seen[f]:
				return fmt.Errorf("server-only field %q listed twice", f)
			case !props[f]:
				return fmt.Errorf("server-only field %q is not a property of the payload", f)
			}
			seen[f] = true
		}
	}
	if c.Confirmation != nil {
		if _, err := ParseConfirmation(c.Confirmation.Template); err != nil {
			return err
		}
	}
	return nil
}

// topLevelProperties returns the names in the "properties" of an object
// schema that checkObjectSchema accepted.
func topLevelProperties(schema json.RawMessage) (map[string]bool, error) {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, fmt.Errorf("payload properties: %w", err)
	}
	props := make(map[string]bool, len(doc.Properties))
	for name := range doc.Properties {
		props[name] = true
	}
	return props, nil
}
