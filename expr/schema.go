package expr

// This file derives the JSON Schema (draft 2020-12) documents of tool
// arguments and results from Goa attributes: the one rendering that code
// generation emits and validation checks defaults against. A schema states everything the design states about a value
// (types, required properties, enums, formats, patterns, ranges, lengths,
// descriptions, defaults and examples) so that the validating codecs of the
// generated code enforce all of it. Objects admit no other properties: a
// property the design does not declare would otherwise be dropped on decode.
// A document is self-contained: a user type used in one place of it is
// written there, a user type used in more than one is written once under
// "$defs" (keyed by its name, in the order of first use) and referred to
// with "$ref" from each place (schemadefs.go). It states no "$schema": the
// dialect is 2020-12, the one every reader of a tool schema assumes when
// none is named (tools.CompileSchema, MCP's tools/list), and model requests
// carry the schema on every step, where the keyword would only add bytes;
// a generated MCP server names the dialect in the schemas it lists
// (tools.WithDialect). Keys keep a fixed order, so the
// same design always gives the same bytes.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	goaexpr "goa.design/goa/v3/expr"
)

// schemaObject is a JSON object whose keys keep their insertion order.
type schemaObject struct {
	keys   []string
	values map[string]any
}

func newSchemaObject() *schemaObject { return &schemaObject{values: map[string]any{}} }

// set sets key to value, keeping the position of a key set before.
func (o *schemaObject) set(key string, value any) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = value
}

// MarshalJSON writes the keys in insertion order.
func (o *schemaObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(key)
		buf.WriteByte(':')
		val, err := marshalNoEscape(o.values[k])
		if err != nil {
			return nil, fmt.Errorf("schema key %q: %w", k, err)
		}
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshalNoEscape encodes v without escaping <, > and &, which descriptions
// use and which JSON does not require escaping.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// schemaTypes maps Goa primitive kinds to JSON Schema types.
var schemaTypes = map[goaexpr.Kind]string{
	goaexpr.BooleanKind: "boolean",
	goaexpr.IntKind:     "integer",
	goaexpr.Int32Kind:   "integer",
	goaexpr.Int64Kind:   "integer",
	goaexpr.UIntKind:    "integer",
	goaexpr.UInt32Kind:  "integer",
	goaexpr.UInt64Kind:  "integer",
	goaexpr.Float32Kind: "number",
	goaexpr.Float64Kind: "number",
	goaexpr.StringKind:  "string",
	goaexpr.BytesKind:   "string",
}

// integerBounds are the ranges of the sized integer kinds, which the schema
// states so that a value the Go type cannot hold is rejected before decoding.
var integerBounds = map[goaexpr.Kind][2]float64{
	goaexpr.Int32Kind:  {math.MinInt32, math.MaxInt32},
	goaexpr.UIntKind:   {0, math.NaN()},
	goaexpr.UInt32Kind: {0, math.MaxUint32},
	goaexpr.UInt64Kind: {0, math.NaN()},
}

// JSONSchema returns the JSON Schema document of att, the schema generated
// code states for it. owner says where att is, for errors ("Args").
// Validation rejects the shapes that have no schema (shapes.go), so for a
// validated design it fails only on a bug.
func JSONSchema(att *goaexpr.AttributeExpr, owner string) ([]byte, error) {
	b := newSchemaBuilder(att)
	var s *schemaObject
	var err error
	if ut, ok := att.Type.(goaexpr.UserType); ok {
		// The root is the document itself, never a reference.
		if s, err = b.userTypeBody(ut); err == nil {
			err = annotate(s, att, owner)
		}
	} else {
		s, err = b.schema(att, owner)
	}
	if err != nil {
		return nil, err
	}
	return marshalNoEscape(b.document(s))
}

// EmptyObjectSchema returns the payload schema of a tool without arguments.
func EmptyObjectSchema() []byte {
	s := newSchemaObject()
	s.set("type", "object")
	s.set("additionalProperties", false)
	out, _ := marshalNoEscape(s) // a fixed document cannot fail to encode
	return out
}

// schema returns the schema of att: its type's schema, then what att itself
// states on top.
func (b *schemaBuilder) schema(att *goaexpr.AttributeExpr, owner string) (*schemaObject, error) {
	s, err := b.typeSchema(att, owner)
	if err != nil {
		return nil, err
	}
	if err := annotate(s, att, owner); err != nil {
		return nil, err
	}
	return s, nil
}

// typeSchema returns the schema of att's type.
func (b *schemaBuilder) typeSchema(att *goaexpr.AttributeExpr, owner string) (*schemaObject, error) {
	s := newSchemaObject()
	switch dt := att.Type.(type) {
	case goaexpr.Primitive:
		typeBounds(s, dt.Kind())
	case *goaexpr.Array:
		s.set("type", "array")
		items, err := b.schema(dt.ElemType, owner+" items")
		if err != nil {
			return nil, err
		}
		s.set("items", items)
	case *goaexpr.Map:
		s.set("type", "object")
		if k := dt.KeyType.Type; k.Kind() != goaexpr.StringKind {
			s.set("propertyNames", map[string]string{"pattern": integerKeyPattern(k.Kind())})
		}
		values, err := b.schema(dt.ElemType, owner+" values")
		if err != nil {
			return nil, err
		}
		s.set("additionalProperties", values)
	case *goaexpr.Object:
		return b.objectSchema(dt, att, owner)
	case goaexpr.UserType:
		name := dt.Name()
		if b.visiting[name] {
			return nil, fmt.Errorf("%s: type %q refers to itself; recursive types have no self-contained tool schema", owner, name)
		}
		if b.uses[name] > 1 {
			return b.ref(dt)
		}
		return b.userTypeBody(dt)
	case *goaexpr.Union:
		return nil, fmt.Errorf("%s: OneOf (union) types have no tool schema form yet", owner)
	default:
		return nil, fmt.Errorf("%s: type %s has no tool schema form", owner, att.Type.Name())
	}
	return s, nil
}

// typeBounds sets the type of a primitive and the range of sized integers.
func typeBounds(s *schemaObject, kind goaexpr.Kind) {
	if t, ok := schemaTypes[kind]; ok {
		s.set("type", t)
	}
	if kind == goaexpr.BytesKind {
		s.set("contentEncoding", "base64")
	}
	if r, ok := integerBounds[kind]; ok {
		s.set("minimum", int64(r[0]))
		if !math.IsNaN(r[1]) {
			s.set("maximum", int64(r[1]))
		}
	}
}

// integerKeyPattern is the pattern of the object keys of a map with integer
// keys.
func integerKeyPattern(kind goaexpr.Kind) string {
	switch kind {
	case goaexpr.UIntKind, goaexpr.UInt32Kind, goaexpr.UInt64Kind:
		return "^(0|[1-9][0-9]*)$"
	}
	return "^(0|-?[1-9][0-9]*)$"
}

// objectSchema returns the schema of an object: its properties in
// declaration order, its required properties and no others.
func (b *schemaBuilder) objectSchema(obj *goaexpr.Object, att *goaexpr.AttributeExpr, owner string) (*schemaObject, error) {
	s := newSchemaObject()
	s.set("type", "object")
	props := newSchemaObject()
	for _, nat := range *obj {
		p, err := b.schema(nat.Attribute, fmt.Sprintf("%s attribute %q", owner, nat.Name))
		if err != nil {
			return nil, err
		}
		props.set(nat.Name, p)
	}
	if len(props.keys) > 0 {
		s.set("properties", props)
	}
	if att.Validation != nil && len(att.Validation.Required) > 0 {
		s.set("required", att.Validation.Required)
	}
	s.set("additionalProperties", false)
	return s, nil
}

// annotate adds what att states beyond its type: description, validations,
// default and examples.
func annotate(s *schemaObject, att *goaexpr.AttributeExpr, owner string) error {
	if att.Description != "" {
		s.set("description", att.Description)
	}
	if v := att.Validation; v != nil {
		if err := validations(s, att, v, owner); err != nil {
			return err
		}
	}
	if att.DefaultValue != nil {
		s.set("default", att.DefaultValue)
	}
	if len(att.UserExamples) > 0 {
		examples := make([]any, len(att.UserExamples))
		for i, ex := range att.UserExamples {
			examples[i] = ex.Value
		}
		s.set("examples", examples)
	}
	return nil
}

// validations adds the validation keywords of v.
func validations(s *schemaObject, att *goaexpr.AttributeExpr, v *goaexpr.ValidationExpr, owner string) error {
	if len(v.Values) > 0 {
		s.set("enum", v.Values)
	}
	// Validation refused the formats without a counterpart.
	switch f, ok := SchemaFormat(v.Format); {
	case ok:
		s.set("format", f)
	case v.Format == goaexpr.FormatIP:
		s.set("anyOf", []map[string]string{{"format": "ipv4"}, {"format": "ipv6"}})
	}
	if v.Pattern != "" {
		s.set("pattern", v.Pattern)
	}
	integer := isIntegerKind(att.Type)
	for _, bound := range []struct {
		key string
		val *float64
	}{{"minimum", v.Minimum}, {"exclusiveMinimum", v.ExclusiveMinimum}, {"maximum", v.Maximum}, {"exclusiveMaximum", v.ExclusiveMaximum}} {
		if bound.val != nil {
			s.set(bound.key, number(*bound.val, integer))
		}
	}
	minKey, maxKey := "minLength", "maxLength"
	switch {
	case goaexpr.IsArray(att.Type):
		minKey, maxKey = "minItems", "maxItems"
	case goaexpr.IsMap(att.Type):
		minKey, maxKey = "minProperties", "maxProperties"
	}
	if v.MinLength != nil {
		s.set(minKey, *v.MinLength)
	}
	if v.MaxLength != nil {
		s.set(maxKey, *v.MaxLength)
	}
	if len(v.Required) > 0 && !goaexpr.IsObject(att.Type) {
		return fmt.Errorf("%s: Required applies to objects only", owner)
	}
	if len(v.Required) > 0 {
		s.set("required", v.Required)
	}
	return nil
}

// isIntegerKind reports whether dt is an integer primitive, or a user type
// of one.
func isIntegerKind(dt goaexpr.DataType) bool {
	switch dt.Kind() {
	case goaexpr.IntKind, goaexpr.Int32Kind, goaexpr.Int64Kind, goaexpr.UIntKind, goaexpr.UInt32Kind, goaexpr.UInt64Kind:
		return true
	case goaexpr.UserTypeKind, goaexpr.ResultTypeKind:
		return isIntegerKind(dt.(goaexpr.UserType).Attribute().Type)
	}
	return false
}

// number returns a bound as an integer for integer values when it is whole,
// so that schemas read "minimum": 1 rather than 1.0 forms.
func number(f float64, integer bool) any {
	if integer && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f)
	}
	return f
}
