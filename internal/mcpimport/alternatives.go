package mcpimport

// Schemas that state alternatives: a list of types ("type":
// ["string","null"]), anyOf and oneOf. The DSL declares one type per
// attribute and no null, so before an attribute is decoded its
// alternatives are reduced to what it can declare:
//
//   - "X or null" (null in a type list, or an anyOf / oneOf branch
//     {"type":"null"}) is X, marked nullable: an argument stays X (a
//     declared input narrower than the server's, which runtime/mcp
//     accepts), a result property that may be null is a Problem, since
//     the declared result must accept every value the server sends;
//   - anyOf / oneOf of one branch (after null) is that branch, the
//     keywords beside it merged in (the outer description first);
//   - anyOf / oneOf whose branches are constants or enums of one type is
//     an enum of that type, by the rule Session.Check reads it with
//     (mcp.EnumOfConstants);
//   - anything else is a union, a Problem whose property --any declares
//     Any, its description kept (from a single described branch when the
//     union has none) with the listed types appended.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// unionKeys are the keywords that list alternatives as subschemas.
var unionKeys = []string{"anyOf", "oneOf"}

// alternatives returns m with its alternatives reduced (see the file's
// comment), whether null is one of its values, and ok false after a
// problem. It never modifies m.
func (d *decoder) alternatives(m map[string]any, pointer string) (map[string]any, bool, bool) {
	nullable := false
	if list, isList := m["type"].([]any); isList && len(list) > 1 {
		rest := slices.DeleteFunc(slices.Clone(list), func(t any) bool { return t == "null" })
		if len(rest) < len(list) {
			nullable = true
			m = withKey(m, "type", rest)
			if len(rest) == 1 {
				m = withKey(m, "type", rest[0])
			}
		}
		if len(rest) == 2 && slices.Contains(rest, any("string")) && !d.output {
			// A value or the same as a string ("boolean" or "string"):
			// the arguments declare the value, which the server accepts.
			other := rest[0]
			if other == "string" {
				other = rest[1]
			}
			d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer + "/type", Keyword: "type",
				Why: fmt.Sprintf("a value of one of several types %s: the arguments declare %v only, which the server accepts", render(list), other)})
			rest = []any{other}
			m = withKey(m, "type", other)
		}
		if len(rest) > 1 {
			d.fail(pointer+"/type", "a value of one of several types "+render(list)+": the DSL declares one type per attribute")
			return nil, false, false
		}
	}
	for _, key := range unionKeys {
		x, has := m[key]
		if !has {
			continue
		}
		branches, isList := x.([]any)
		if !isList || len(branches) == 0 {
			d.fail(pointer+"/"+key, key+" is a non-empty list of schemas, got "+render(x))
			return nil, false, false
		}
		rest := slices.DeleteFunc(slices.Clone(branches), isNull)
		if len(rest) < len(branches) {
			nullable = true
		}
		if len(rest) == 0 {
			d.fail(pointer+"/"+key, "a value that is only null: the DSL declares no null")
			return nil, false, false
		}
		if typ, values, ok := mcp.EnumOfConstants(rest); ok {
			rest = []any{map[string]any{"type": typ, "enum": values}}
		}
		if o, ok := richest(rest); ok && !d.output {
			d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer + "/" + key, Keyword: key,
				Why: fmt.Sprintf("a value of one of several types (%s): the arguments declare %s only, which the server accepts", strings.Join(branchTypes(rest), ", "), typeText(o))})
			rest = []any{o}
		}
		if len(rest) > 1 {
			d.fail(pointer+"/"+key, fmt.Sprintf("a value of one of several types (%s): the DSL declares one type per attribute", strings.Join(branchTypes(rest), ", ")))
			return nil, false, false
		}
		merged, ok := mergeBranch(withoutKey(m, key), rest[0])
		if !ok {
			d.fail(pointer+"/"+key, key+" whose branch states a keyword its schema states too: the DSL declares one schema per attribute")
			return nil, false, false
		}
		m = merged
		if _, isList := m["type"].([]any); isList {
			// A branch with a type list: reduce it the same way.
			out, n, ok := d.alternatives(m, pointer)
			return out, nullable || n, ok
		}
	}
	return m, nullable, true
}

// richest returns the one structured branch (an object or an array) of a
// union whose other branches are scalars (a value of the object's fields,
// or the same thing as a string): the arguments declare it, a narrower
// declaration the server accepts. It returns false for any other union.
func richest(branches []any) (any, bool) {
	var found any
	for _, b := range branches {
		switch typeText(b) {
		case "string", "integer", "number", "boolean":
			if bm, ok := b.(map[string]any); ok && (bm["const"] != nil || bm["enum"] != nil) {
				return nil, false // values of their own, not the value as text
			}
			continue
		case "any":
			return nil, false
		}
		if found != nil {
			return nil, false
		}
		found = b
	}
	return found, found != nil
}

// isNull reports whether a branch is {"type":"null"}, annotations beside.
func isNull(b any) bool {
	m, ok := b.(map[string]any)
	if !ok || m["type"] != "null" {
		return false
	}
	for k := range m {
		if k != "type" && k != "description" && !slices.Contains(annotationOnly, k) {
			return false
		}
	}
	return true
}

// mergeBranch returns outer with the keywords of the single branch b; a
// description of both keeps the outer one. It returns false when both
// state another keyword with different values, or b is no object.
func mergeBranch(outer map[string]any, b any) (map[string]any, bool) {
	if b == true {
		return outer, true
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return nil, false
	}
	out := withoutKey(outer, "")
	for k, v := range bm {
		o, has := out[k]
		switch {
		case !has:
			out[k] = v
		case k == "description" || slices.Contains(annotationOnly, k):
		case render(o) != render(v):
			return nil, false
		}
	}
	return out, true
}

// branchTypes names the type of each branch of a union, for messages and
// for the description of a property --any declares Any.
func branchTypes(branches []any) []string {
	names := make([]string, 0, len(branches))
	for _, b := range branches {
		names = append(names, typeText(b))
	}
	return names
}

// typeText names the type a schema states: "string", "array of integer",
// "string or null", "any".
func typeText(s any) string {
	m, ok := s.(map[string]any)
	if !ok {
		return "any"
	}
	switch t := m["type"].(type) {
	case string:
		if t == "array" {
			if items, has := m["items"]; has {
				return "array of " + typeText(items)
			}
		}
		return t
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, " or ")
	}
	if _, has := m["$ref"]; has {
		return "object"
	}
	for _, key := range unionKeys {
		if list, ok := m[key].([]any); ok {
			return strings.Join(branchTypes(list), " or ")
		}
	}
	if _, has := m["properties"]; has {
		return "object"
	}
	return "any"
}

// anyDescription is the description of a property --any declares Any: its
// own, or that of its single described branch, with the types the server
// lists for it.
func anyDescription(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	desc, _ := m["description"].(string)
	var types []string
	if list, isList := m["type"].([]any); isList {
		types = branchTypes([]any{map[string]any{"type": list}})
	}
	for _, key := range unionKeys {
		branches, isList := m[key].([]any)
		if !isList {
			continue
		}
		types = branchTypes(branches)
		if desc != "" {
			continue
		}
		var described []string
		for _, b := range branches {
			if bm, ok := b.(map[string]any); ok {
				if s, ok := bm["description"].(string); ok && s != "" {
					described = append(described, s)
				}
			}
		}
		if len(described) == 1 {
			desc = described[0]
		}
	}
	if len(types) == 0 {
		return desc
	}
	var distinct []string
	for _, t := range types {
		if !slices.Contains(distinct, t) {
			distinct = append(distinct, t)
		}
	}
	types = distinct
	typesText := "Type: " + strings.Join(types, " or ") + "."
	if desc == "" {
		return typesText
	}
	return strings.TrimRight(desc, " ") + " (" + strings.TrimSuffix(typesText, ".") + ")"
}

// declaresType reports whether a schema states a type: a property --any
// declares Any loses it.
func declaresType(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	if _, has := m["type"]; has {
		return true
	}
	if _, has := m["$ref"]; has {
		return true
	}
	for _, key := range append([]string{"allOf"}, unionKeys...) {
		if list, ok := m[key].([]any); ok {
			for _, b := range list {
				if declaresType(b) {
					return true
				}
			}
		}
	}
	return false
}

// withKey returns m with k set to v.
func withKey(m map[string]any, k string, v any) map[string]any {
	out := withoutKey(m, k)
	out[k] = v
	return out
}
