package mcp

// The canonical form of a JSON Schema, in which a declared schema and the
// one a server lists are compared (Session.Check). It removes what never
// changes which values a schema accepts and writes equivalent spellings
// one way; every constraint stays, so two schemas with one canonical form
// accept the same values. The rules:
//
//   - references to the root's definitions are replaced by the
//     definitions (schemarefs.go), so a subschema stated in place and one
//     stated once under $defs and referred to are one form;
//   - annotations are dropped: title, description, examples, $comment,
//     default, deprecated, readOnly, writeOnly. The runtime registers the
//     declared schema, so the declared annotations are the ones the model
//     reads; the server's never reach it.
//   - "$schema" is dropped when it names JSON Schema 2020-12 (the draft the
//     runtime's validator assumes when $schema is absent), or draft-07 and
//     the schema uses no keyword whose meaning differs between the two
//     (dialectKeywords, items as an array, $ref beside other keywords);
//     any other value stays and is compared.
//   - "type": ["x"] is "type": "x"; a list of types is sorted, without
//     repeats; so are "required" and "enum" (by their values' JSON).
//   - keywords at their default are dropped: additionalProperties,
//     items, propertyNames, unevaluatedProperties and unevaluatedItems that
//     accept everything (true or {}), minLength, minItems and minProperties
//     of 0, uniqueItems false, an empty required, properties,
//     patternProperties, $defs, definitions or dependentSchemas.
//   - a subschema true is {}.
//
// Two rules then let a declaration differ from the server's schema where
// what it declares is safe to call and to read (schemaDifference):
// adoptStricter (an input schema may forbid additional properties) and
// adoptAny (a property declared Any stands for whatever the server states
// for it).
//
// Only schema positions are rewritten: the keys of "properties" are
// property names (a property may be named "description"), and the values
// of enum, const and of keywords this file does not know are compared as
// they are.

import (
	"encoding/json"
	"slices"
	"strings"
)

// annotations never change which values a schema accepts.
var annotations = []string{"title", "description", "examples", "$comment", "default", "deprecated", "readOnly", "writeOnly"}

// Keywords by how their value holds subschemas.
var (
	oneSubschema = []string{"additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
		"unevaluatedProperties", "unevaluatedItems", "additionalItems"}
	subschemaMaps  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	subschemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// dialectKeywords mean something else in draft-07 and 2020-12, or exist
// in only one of them (and are ignored by the other).
var dialectKeywords = []string{"additionalItems", "prefixItems", "dependencies", "dependentSchemas", "dependentRequired",
	"unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains", "$recursiveRef", "$recursiveAnchor",
	"$dynamicRef", "$dynamicAnchor", "$anchor", "$vocabulary"}

// Dialects whose $schema may be dropped.
const (
	draft2020 = "https://json-schema.org/draft/2020-12/schema"
	draft07   = "http://json-schema.org/draft-07/schema"
)

// canonicalSchema returns the canonical form of a schema decoded from
// canonical JSON (decodeNumbers of tools.Canonicalize's output); v is not
// modified.
func canonicalSchema(v any) any {
	out, sensitive := canonicalSubschema(inlineRefs(v))
	m, ok := out.(map[string]any)
	if !ok {
		return out
	}
	if _, typed := m["type"]; !typed && rootObject(m) {
		m["type"] = "object"
	}
	if d, ok := m["$schema"].(string); ok {
		d = strings.TrimSuffix(d, "#")
		if d == draft2020 || (d == draft07 && !sensitive) {
			delete(m, "$schema")
		}
	}
	return m
}

// canonicalSubschema returns the canonical form of one schema and whether
// it or a subschema uses a keyword whose meaning depends on the dialect.
func canonicalSubschema(v any) (any, bool) {
	if v == true {
		return map[string]any{}, false
	}
	in, ok := v.(map[string]any)
	if !ok {
		return v, false
	}
	m := make(map[string]any, len(in))
	for k, x := range in {
		if !slices.Contains(annotations, k) {
			m[k] = x
		}
	}
	sensitive := false
	for _, k := range dialectKeywords {
		if _, ok := m[k]; ok {
			sensitive = true
		}
	}
	if _, ok := m["$ref"]; ok && refSiblings(m) {
		sensitive = true // draft-07 ignores the keywords beside $ref
	}
	if _, ok := m["items"].([]any); ok {
		sensitive = true // draft-07's tuple form, 2020-12's prefixItems
	}
	note := func(x any, s bool) any {
		sensitive = sensitive || s
		return x
	}
	for _, k := range oneSubschema {
		switch x := m[k].(type) {
		case map[string]any, bool:
			m[k] = note(canonicalSubschema(x))
		case []any: // items as a tuple
			m[k] = canonicalList(x, note)
		}
	}
	for _, k := range subschemaMaps {
		if x, ok := m[k].(map[string]any); ok {
			c := make(map[string]any, len(x))
			for name, s := range x {
				c[name] = note(canonicalSubschema(s))
			}
			m[k] = c
		}
	}
	for _, k := range subschemaLists {
		if x, ok := m[k].([]any); ok {
			m[k] = canonicalList(x, note)
		}
	}
	if t, ok := m["type"].([]any); ok {
		t = sortedSet(t)
		if len(t) == 1 {
			m["type"] = t[0]
		} else {
			m["type"] = t
		}
	}
	for _, k := range []string{"required", "enum"} {
		if x, ok := m[k].([]any); ok {
			m[k] = sortedSet(x)
		}
	}
	if f, ok := m["format"].(string); ok && !slices.Contains(designFormats, f) {
		delete(m, "format")
	}
	mergeAlternatives(m)
	dropDefaults(m)
	return m, sensitive
}

// designFormats are the formats a design can state (the JSON Schema
// names of Goa's Format constants that gen writes). Any other format
// ("int64", "uri-reference") is read as an annotation: a design declares
// the nearest type without it.
var designFormats = []string{"date", "date-time", "uuid", "email", "hostname", "ipv4", "ipv6", "uri", "regex"}

// rootObject reports whether a root without "type" states nothing but
// object keywords: a tool's schema is an object (MCP), so it is read as
// "type": "object". The keys are canonical, annotations dropped.
func rootObject(m map[string]any) bool {
	for k := range m {
		if !slices.Contains(rootObjectKeywords, k) {
			return false
		}
	}
	return true
}

// rootObjectKeywords are the keywords of a root without "type" that is
// read as an object: object keywords, and those of any schema's root.
var rootObjectKeywords = []string{"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
	"minProperties", "maxProperties", "$schema", "$defs", "definitions", "$id"}

// mergeAlternatives writes two spellings of one schema one way: anyOf,
// oneOf or allOf of a single branch whose keywords the schema does not
// state otherwise is that branch merged into the schema, and anyOf or
// oneOf of constants and enums of one type (EnumOfConstants), in a schema
// that states no enum and no other type, is an enum of that type. m is
// canonical below; it is modified.
func mergeAlternatives(m map[string]any) {
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		branches, ok := m[key].([]any)
		if !ok {
			continue
		}
		if typ, values, ok := EnumOfConstants(branches); ok && key != "allOf" {
			if t, has := m["type"]; !has || t == typ {
				if _, has := m["enum"]; !has {
					delete(m, key)
					m["type"], m["enum"] = typ, sortedSet(values)
				}
			}
			continue
		}
		if len(branches) != 1 {
			continue
		}
		b, ok := branches[0].(map[string]any)
		if !ok {
			continue
		}
		conflict := false
		for k := range b {
			if _, has := m[k]; has {
				conflict = true
			}
		}
		if !conflict {
			delete(m, key)
			for k, v := range b {
				m[k] = v
			}
		}
	}
}

// EnumOfConstants returns the enum that anyOf or oneOf branches state when
// each branch is a const or an enum of scalar values of one JSON type: the
// type ("string", "boolean", "integer", or "number" when any value is not
// an integer) and the values, in the branches' order. Schemas are decoded
// with json.Decoder.UseNumber. A branch may state beside its const or enum
// only annotations and a "type" that accepts each of its values ("number"
// accepts integers); a branch with both const and enum, an empty or
// non-list enum, a null or structured value, a type list, any other
// keyword, or fewer than two branches gives false. It is the one rule by
// which both mcp import (an enum in the design) and Session.Check (the
// canonical form) read such a union, so that an imported declaration and
// its server's schema compare equal.
func EnumOfConstants(branches []any) (typ string, values []any, ok bool) {
	if len(branches) < 2 {
		return "", nil, false
	}
	for _, b := range branches {
		m, isObject := b.(map[string]any)
		if !isObject {
			return "", nil, false
		}
		var vals []any
		c, hasConst := m["const"]
		e, hasEnum := m["enum"]
		switch {
		case hasConst && hasEnum:
			return "", nil, false
		case hasConst:
			vals = []any{c}
		case hasEnum:
			list, isList := e.([]any)
			if !isList || len(list) == 0 {
				return "", nil, false
			}
			vals = list
		default:
			return "", nil, false
		}
		for k := range m {
			if k != "const" && k != "enum" && k != "type" && !slices.Contains(annotations, k) {
				return "", nil, false
			}
		}
		bt, hasType := m["type"]
		for _, v := range vals {
			t := jsonType(v)
			if t == "" || typ != "" && t != typ && !(numeric(t) && numeric(typ)) {
				return "", nil, false
			}
			if hasType && bt != t && !(bt == "number" && t == "integer") {
				return "", nil, false // the branch accepts no such value
			}
			if typ == "" || t == "number" {
				typ = t
			}
		}
		values = append(values, vals...)
	}
	return typ, values, true
}

func numeric(t string) bool { return t == "integer" || t == "number" }

// jsonType is the JSON Schema type of a scalar decoded with UseNumber.
func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	}
	return ""
}

// refSiblings reports whether a schema with $ref has keywords beside it
// that apply to values: draft-07 ignores them and 2020-12 applies them.
// $schema, $id and definitions mean the same beside $ref in both.
func refSiblings(m map[string]any) bool {
	for k := range m {
		switch k {
		case "$ref", "$schema", "$id", "$defs", "definitions":
		default:
			return true
		}
	}
	return false
}

func canonicalList(x []any, note func(any, bool) any) []any {
	c := make([]any, len(x))
	for i, s := range x {
		c[i] = note(canonicalSubschema(s))
	}
	return c
}

// dropDefaults removes the keywords of m whose value is their default.
func dropDefaults(m map[string]any) {
	for _, k := range []string{"additionalProperties", "items", "propertyNames", "unevaluatedProperties", "unevaluatedItems"} {
		if x, ok := m[k].(map[string]any); ok && len(x) == 0 {
			delete(m, k)
		}
	}
	// Every property name is a string.
	if x, ok := m["propertyNames"].(map[string]any); ok && len(x) == 1 && x["type"] == "string" {
		delete(m, "propertyNames")
	}
	for _, k := range []string{"minLength", "minItems", "minProperties"} {
		if n, ok := m[k].(json.Number); ok && n == "0" {
			delete(m, k)
		}
	}
	if m["uniqueItems"] == false {
		delete(m, "uniqueItems")
	}
	for _, k := range []string{"required", "properties", "patternProperties", "$defs", "definitions", "dependentSchemas"} {
		switch x := m[k].(type) {
		case []any:
			if len(x) == 0 {
				delete(m, k)
			}
		case map[string]any:
			if len(x) == 0 {
				delete(m, k)
			}
		}
	}
}

// sortedSet returns the values of x sorted by their JSON, without repeats.
func sortedSet(x []any) []any {
	type keyed struct {
		key string
		v   any
	}
	ks := make([]keyed, len(x))
	for i, v := range x {
		b, _ := json.Marshal(v) // values decoded from JSON always marshal
		ks[i] = keyed{string(b), v}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	ks = slices.CompactFunc(ks, func(a, b keyed) bool { return a.key == b.key })
	out := make([]any, len(ks))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}

// adoptStricter lets a declared input schema be stricter than the
// server's in one keyword: where the declared schema has
// "additionalProperties": false and the server's, at the same place, has
// no additionalProperties (it accepts other properties), the server's is
// given the declared false before the two are compared. Every call is
// validated against the declared schema before it is sent, so what is sent
// has no other properties and the server accepts it. Only places where a
// stricter subschema makes the whole schema stricter are visited: the root,
// and through properties, patternProperties, additionalProperties, items,
// prefixItems, contains, allOf, anyOf, then, else and dependentSchemas;
// never under not, oneOf, if, or in $defs and definitions (reached by $ref
// from anywhere). Both arguments are canonical forms; served is modified.
func adoptStricter(declared, served any) {
	d, ok1 := declared.(map[string]any)
	s, ok2 := served.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	if _, has := s["additionalProperties"]; !has && d["additionalProperties"] == false {
		s["additionalProperties"] = false
	}
	for _, k := range []string{"additionalProperties", "items", "contains", "then", "else"} {
		adoptStricter(d[k], s[k])
	}
	for _, k := range []string{"properties", "patternProperties", "dependentSchemas"} {
		dm, ok1 := d[k].(map[string]any)
		sm, ok2 := s[k].(map[string]any)
		if ok1 && ok2 {
			for name, x := range dm {
				adoptStricter(x, sm[name])
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "prefixItems"} {
		dl, ok1 := d[k].([]any)
		sl, ok2 := s[k].([]any)
		if ok1 && ok2 {
			for i := range min(len(dl), len(sl)) {
				adoptStricter(dl[i], sl[i])
			}
		}
	}
}

// adoptAny lets a declared property be Any: where the declared schema has
// a property whose canonical schema is {} (Goa's Any, its annotations
// dropped) and the server's has the same property, the server's property
// schema is made {} too before the two are compared. Calls then go out
// unchecked in that property (the server still validates them), and a
// result's value there is decoded as it comes. Properties are visited
// through properties, items and additionalProperties of both schemas. Both
// arguments are canonical forms; served is modified.
func adoptAny(declared, served any) {
	d, ok1 := declared.(map[string]any)
	s, ok2 := served.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	if dm, ok := d["properties"].(map[string]any); ok {
		if sm, ok := s["properties"].(map[string]any); ok {
			for name, x := range dm {
				if _, has := sm[name]; !has {
					continue
				}
				if m, ok := x.(map[string]any); ok && len(m) == 0 {
					sm[name] = map[string]any{}
					continue
				}
				adoptAny(x, sm[name])
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		adoptAny(d[k], s[k])
	}
}

// SchemaDepth is the nesting of objects and arrays in a decoded JSON
// schema, as Limits.MaxSchemaDepth counts it: 0 for a scalar, 1 for a
// flat object.
func SchemaDepth(v any) int { return depth(v) }
