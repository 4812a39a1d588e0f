package codegen

// This file turns the defaults a design states into code. A schema carries
// "default" as an annotation that validation never applies, so every struct
// type with a default anywhere in it gets a SetDefaults method
// (tools.Defaulter) that sets each omitted optional property to its default,
// and the TypedCodec of the package calls it after validation. Validation
// proved each default valid against its property's schema (expr.DefaultJSON);
// generation converts it to a Go literal of the field's type, so the value
// the executor receives is one that the schema accepts.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// setDefaultsMethod is the method of tools.Defaulter.
const setDefaultsMethod = gonames.DefaultsMethod

// setDefault sets the default of optional field f, declared by att, after
// proving it valid against att's schema; f keeps no default when att has
// none.
func (f *structField) setDefault(att *goaexpr.AttributeExpr, owner string) error {
	lit, doc, err := fieldDefault(f, att, owner)
	if err != nil || lit == nil {
		return err
	}
	f.deflt, f.defaultJSON = lit, string(doc)
	return nil
}

// fieldDefault returns the Go literal of the default of field f, declared by
// att, and its JSON text; nil when att has no default. expr.DefaultJSON is
// the check validation made: it fails here only on a bug.
func fieldDefault(f *structField, att *goaexpr.AttributeExpr, owner string) (jen.Code, []byte, error) {
	doc, err := expr.DefaultJSON(att, owner)
	if err != nil || doc == nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("%s: default %s: %w", owner, doc, err)
	}
	lit, err := literal(f.typ, v)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: default %s: %w", owner, doc, err)
	}
	if f.typ.kind == kindPrimitive {
		return jen.New(lit), doc, nil
	}
	return lit, doc, nil
}

// literal returns the Go literal of JSON value v (decoded with UseNumber)
// as a value of type t.
func literal(t *goType, v any) (jen.Code, error) {
	switch t.kind {
	case kindPrimitive:
		return primitiveLiteral(t.prim, v)
	case kindBytes:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("got %T, want base64 text", v)
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("bytes: %w", err)
		}
		return jen.Index().Byte().Parens(jen.Lit(string(b))), nil
	case kindSlice:
		items, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("got %T, want an array", v)
		}
		elems := make([]jen.Code, len(items))
		for i, item := range items {
			lit, err := literal(t.elem, item)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			elems[i] = lit
		}
		return typeCode(t).Values(elems...), nil
	case kindMap:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("got %T, want an object", v)
		}
		var elems []jen.Code
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			key, err := mapKeyLiteral(t.key, k)
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", k, err)
			}
			val, err := literal(t.elem, obj[k])
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", k, err)
			}
			elems = append(elems, jen.Add(key).Op(":").Add(val))
		}
		return typeCode(t).Values(elems...), nil
	case kindStruct:
		return structLiteral(t.named, v)
	}
	return nil, fmt.Errorf("no Go literal of an Any value")
}

// structLiteral returns &T{...} of JSON object v.
func structLiteral(nt *namedType, v any) (jen.Code, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("got %T, want an object", v)
	}
	var fields keyed
	for _, f := range nt.fields {
		fv, present := obj[f.jsonName]
		if !present {
			continue
		}
		lit, err := literal(f.typ, fv)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", f.jsonName, err)
		}
		if !f.required && f.typ.kind == kindPrimitive {
			lit = jen.New(lit)
		}
		fields.set(f.goName, lit)
	}
	for k := range obj {
		if !slices.ContainsFunc(nt.fields, func(f *structField) bool { return f.jsonName == k }) {
			return nil, fmt.Errorf("property %q is not a field of %s", k, nt.name)
		}
	}
	return jen.Op("&").Id(nt.name).Values(fields...), nil
}

// primitiveLiteral returns the literal of v as a prim: plain for the types
// an untyped constant defaults to, converted for the others.
func primitiveLiteral(prim string, v any) (jen.Code, error) {
	switch prim {
	case "bool":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("got %T, want a boolean", v)
		}
		return jen.Lit(b), nil
	case "string":
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("got %T, want a string", v)
		}
		return jen.Lit(s), nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("got %T, want a number", v)
	}
	text, err := expr.GoNumber(prim, string(n))
	if err != nil {
		return nil, err
	}
	if prim == "int" {
		return jen.Op(text), nil
	}
	return jen.Id(prim).Call(jen.Op(text)), nil
}

// mapKeyLiteral returns the literal of object key k as a map key of type t.
func mapKeyLiteral(t *goType, k string) (jen.Code, error) {
	if t.prim == "string" {
		return jen.Lit(k), nil
	}
	return primitiveLiteral(t.prim, json.Number(k))
}

// markDefaults sets withDefaults on every type of types that has a default
// at any depth. Validation rejects a field that would hide the method at
// the design line of its tool; finding one here is a bug.
func markDefaults(types []*namedType) error {
	memo := map[*namedType]bool{}
	for _, nt := range types {
		nt.withDefaults = typeHasDefaults(&goType{kind: kindStruct, named: nt}, memo)
		if !nt.withDefaults {
			continue
		}
		for _, f := range nt.fields {
			if f.goName == setDefaultsMethod {
				return fmt.Errorf("bug: type %s: field %s (property %q) hides the method that sets its defaults, which validation did not report", nt.name, f.goName, f.jsonName)
			}
		}
	}
	return nil
}

// typeHasDefaults reports whether a value of t holds a field with a default.
// Types are not recursive (the collector rejects it), so the walk ends.
func typeHasDefaults(t *goType, memo map[*namedType]bool) bool {
	switch t.kind {
	case kindSlice, kindMap:
		return typeHasDefaults(t.elem, memo)
	case kindStruct:
		if has, ok := memo[t.named]; ok {
			return has
		}
		has := false
		for _, f := range t.named.fields {
			has = has || f.deflt != nil || typeHasDefaults(f.typ, memo)
		}
		memo[t.named] = has
		return has
	}
	return false
}

// setDefaultsDecl emits the SetDefaults method of nt.
func setDefaultsDecl(nt *namedType) jen.Code {
	return jen.Add(docf("%s sets each optional property of %s that the JSON value omitted and the design gives a default to that default, at every depth (tools.Defaulter). It leaves given properties as they are and does nothing on a nil receiver.", setDefaultsMethod, nt.name)).Line().
		Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id(setDefaultsMethod).Params().BlockFunc(func(g *jen.Group) {
		g.If(jen.Id("v").Op("==").Nil()).Block(jen.Return())
		for _, f := range nt.fields {
			field := jen.Id("v").Dot(f.goName)
			if f.deflt != nil {
				g.If(field.Clone().Op("==").Nil()).Block(field.Clone().Op("=").Add(f.deflt))
			}
			if s := nestedDefaults(field, f.typ, 0); s != nil {
				g.Add(s)
			}
		}
	})
}

// nestedDefaults emits the statement that sets the defaults inside the
// value x of type t, nil when t holds none: a call on a struct, a loop over
// the elements of a slice or map.
func nestedDefaults(x *jen.Statement, t *goType, depth int) jen.Code {
	switch t.kind {
	case kindStruct:
		if t.named.withDefaults {
			return x.Clone().Dot(setDefaultsMethod).Call()
		}
	case kindSlice, kindMap:
		item := jen.Id("e" + strconv.Itoa(depth))
		if inner := nestedDefaults(item, t.elem, depth+1); inner != nil {
			return jen.For(jen.List(jen.Id("_"), item.Clone()).Op(":=").Range().Add(x.Clone())).Block(inner)
		}
	}
	return nil
}
