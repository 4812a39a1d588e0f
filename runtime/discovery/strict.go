package discovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// ErrNotStrictCapable is matched by every error of CheckStrictSchema.
var ErrNotStrictCapable = errors.New("discovery: schema is outside the strict-capable contract")

// strictKeywords are the keywords a strict schema may use: the subset that
// every provider with strict tools enforces exactly.
var strictKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "const": true, "anyOf": true,
	"description": true, "title": true, "$defs": true, "$ref": true,
}

var jsonTypes = map[string]bool{
	"object": true, "array": true, "string": true, "number": true,
	"integer": true, "boolean": true, "null": true,
}

// CheckStrictSchema reports why the parameters of a strict tool are outside
// the strict-capable contract, or nil. The contract is the subset of JSON
// Schema that providers enforce exactly when they constrain arguments:
//   - every schema is a JSON object using only type, properties, required,
//     additionalProperties, items, enum, const, anyOf, description, title,
//     $defs and $ref (and $schema at the root);
//   - every object schema sets "additionalProperties": false and lists
//     every property, and only those, in "required";
//   - "type" is a known type name or a list of them; "items" is one
//     schema; "anyOf" is a non-empty list of schemas; "$ref" points into
//     the same document ("#...").
//
// The parameters must also pass CheckParameters.
func CheckStrictSchema(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return fmt.Errorf("%w: %w", ErrNotStrictCapable, err)
	}
	if err := checkStrictNode(root, "", true); err != nil {
		return fmt.Errorf("%w: %w", ErrNotStrictCapable, err)
	}
	return nil
}

func checkStrictNode(node any, ptr string, root bool) error {
	at := ptr
	if at == "" {
		at = "(root)"
	}
	m, ok := node.(map[string]any)
	if !ok {
		return fmt.Errorf("at %s: a schema must be a JSON object", at)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strictKeywords[k] && !(root && k == "$schema") {
			return fmt.Errorf("at %s: keyword %q is not supported", at, k)
		}
	}
	isObject, err := checkStrictType(m["type"], at)
	if err != nil {
		return err
	}
	props, hasProps := m["properties"]
	if isObject || hasProps {
		if err := checkStrictObject(m, at); err != nil {
			return err
		}
	}
	if hasProps {
		pm, _ := props.(map[string]any) // checkStrictObject proved it
		for _, name := range slices.Sorted(maps.Keys(pm)) {
			if err := checkStrictNode(pm[name], ptr+"/properties/"+escapePointer(name), false); err != nil {
				return err
			}
		}
	}
	if items, ok := m["items"]; ok {
		if err := checkStrictNode(items, ptr+"/items", false); err != nil {
			return err
		}
	}
	if anyOf, ok := m["anyOf"]; ok {
		list, ok := anyOf.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("at %s: anyOf must be a non-empty list of schemas", at)
		}
		for i, sub := range list {
			if err := checkStrictNode(sub, fmt.Sprintf("%s/anyOf/%d", ptr, i), false); err != nil {
				return err
			}
		}
	}
	if defs, ok := m["$defs"]; ok {
		dm, ok := defs.(map[string]any)
		if !ok {
			return fmt.Errorf("at %s: $defs must be an object of schemas", at)
		}
		for _, name := range slices.Sorted(maps.Keys(dm)) {
			if err := checkStrictNode(dm[name], ptr+"/$defs/"+escapePointer(name), false); err != nil {
				return err
			}
		}
	}
	if ref, ok := m["$ref"]; ok {
		s, ok := ref.(string)
		if !ok || !strings.HasPrefix(s, "#") {
			return fmt.Errorf("at %s: $ref must point into the same document", at)
		}
	}
	if enum, ok := m["enum"]; ok {
		if list, ok := enum.([]any); !ok || len(list) == 0 {
			return fmt.Errorf("at %s: enum must be a non-empty list", at)
		}
	}
	return nil
}

// checkStrictType checks a "type" value and reports whether it admits
// objects.
func checkStrictType(t any, at string) (bool, error) {
	switch t := t.(type) {
	case nil:
		return false, nil
	case string:
		if !jsonTypes[t] {
			return false, fmt.Errorf("at %s: unknown type %q", at, t)
		}
		return t == "object", nil
	case []any:
		if len(t) == 0 {
			return false, fmt.Errorf("at %s: type must not be an empty list", at)
		}
		object := false
		seen := make(map[string]bool, len(t))
		for _, v := range t {
			s, ok := v.(string)
			if !ok || !jsonTypes[s] {
				return false, fmt.Errorf("at %s: type lists %v, not a type name", at, v)
			}
			if seen[s] {
				return false, fmt.Errorf("at %s: type lists %q twice", at, s)
			}
			seen[s] = true
			object = object || s == "object"
		}
		return object, nil
	}
	return false, fmt.Errorf("at %s: type must be a type name or a list of them", at)
}

// checkStrictObject checks that an object schema closes its properties and
// requires every one of them.
func checkStrictObject(m map[string]any, at string) error {
	if ap, ok := m["additionalProperties"]; !ok || ap != false {
		return fmt.Errorf(`at %s: an object schema must set "additionalProperties": false`, at)
	}
	props := map[string]any{}
	if p, ok := m["properties"]; ok {
		if props, ok = p.(map[string]any); !ok {
			return fmt.Errorf("at %s: properties must be an object of schemas", at)
		}
	}
	var required []string
	if r, ok := m["required"]; ok {
		list, ok := r.([]any)
		if !ok {
			return fmt.Errorf("at %s: required must be a list of property names", at)
		}
		for _, v := range list {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("at %s: required lists %v, not a property name", at, v)
			}
			if _, ok := props[s]; !ok {
				return fmt.Errorf("at %s: required lists %q, which is not a property", at, s)
			}
			if slices.Contains(required, s) {
				return fmt.Errorf("at %s: required lists %q twice", at, s)
			}
			required = append(required, s)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if !slices.Contains(required, name) {
			return fmt.Errorf("at %s: property %q must be required (use a null type for an optional value)", at, name)
		}
	}
	return nil
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
