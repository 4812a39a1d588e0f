package expr

// This file checks the defaults of tool arguments and results against the
// schemas generated code states for them (JSONSchema). A schema carries
// "default" as an annotation that schema validation never applies: the
// generated codec sets each omitted optional property to its default after
// validating, so a default its own schema rejects would reach the executor
// as a value the tool's contract forbids; one its field's Go type cannot hold
// (a float32 out of range, bytes that are not base64) could not be written
// as Go at all. Validation reports such a default at the design line of its
// Args or Return; code generation converts the proven default to Go with
// DefaultJSON and GoNumber.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// DefaultOf returns the default of att: its own, or the one its user type
// states, the way its schema inherits it; nil when there is none.
func DefaultOf(att *goaexpr.AttributeExpr) any {
	for att != nil {
		if att.DefaultValue != nil {
			return att.DefaultValue
		}
		ut, ok := att.Type.(goaexpr.UserType)
		if !ok {
			return nil
		}
		att = ut.Attribute()
	}
	return nil
}

// DefaultJSON returns the JSON text of the default of att (DefaultOf), nil
// when it has none, after proving that it satisfies att's own schema, the
// one generated code validates values against, and that it converts to the
// Go type of att. owner says where att is, for errors ("Args attribute
// \"limit\"").
func DefaultJSON(att *goaexpr.AttributeExpr, owner string) ([]byte, error) {
	value := DefaultOf(att)
	if value == nil {
		return nil, nil
	}
	doc, err := marshalNoEscape(value)
	if err != nil {
		return nil, fmt.Errorf("%s: default %v has no JSON form: %w", owner, value, err)
	}
	raw, err := JSONSchema(att, owner)
	if err != nil {
		return nil, err
	}
	schema, err := tools.CompileSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: schema: %w", owner, err)
	}
	if err := schema.Validate(doc); err != nil {
		var verr *tools.ValidationError
		if errors.As(err, &verr) {
			err = oneLine{verr}
		}
		return nil, fmt.Errorf("%s: default %s does not satisfy the attribute's own schema: %w", owner, doc, err)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%s: default %s: %w", owner, doc, err)
	}
	if err := fitsGoType(att, v); err != nil {
		return nil, fmt.Errorf("%s: default %s does not fit the attribute's Go type: %w", owner, doc, err)
	}
	return doc, nil
}

// fitsGoType checks that JSON value v (decoded with UseNumber), which att's
// schema accepts, converts to the Go type generated code gives att: a
// number its Go type can hold (a schema states the range of sized
// integers, not of float32), base64 text for bytes, at every depth.
func fitsGoType(att *goaexpr.AttributeExpr, v any) error {
	switch dt := att.Type.(type) {
	case goaexpr.Primitive:
		return primitiveFits(dt.Kind(), v)
	case *goaexpr.Array:
		items, _ := v.([]any) // the schema proved the shape
		for i, item := range items {
			if err := fitsGoType(dt.ElemType, item); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
	case *goaexpr.Map:
		obj, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			var key any = k
			if isIntegerKind(dt.KeyType.Type) {
				key = json.Number(k)
			}
			if err := fitsGoType(dt.KeyType, key); err != nil {
				return fmt.Errorf("key %q: %w", k, err)
			}
			if err := fitsGoType(dt.ElemType, obj[k]); err != nil {
				return fmt.Errorf("key %q: %w", k, err)
			}
		}
	case *goaexpr.Object:
		obj, _ := v.(map[string]any)
		for _, nat := range *dt {
			if fv, ok := obj[nat.Name]; ok {
				if err := fitsGoType(nat.Attribute, fv); err != nil {
					return fmt.Errorf("property %q: %w", nat.Name, err)
				}
			}
		}
	case goaexpr.UserType:
		return fitsGoType(dt.Attribute(), v)
	}
	return nil
}

// primitiveFits checks that v converts to the Go type of kind k.
func primitiveFits(k goaexpr.Kind, v any) error {
	switch k {
	case goaexpr.BytesKind:
		s, _ := v.(string)
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			return fmt.Errorf("bytes: %w", err)
		}
	case goaexpr.IntKind, goaexpr.Int32Kind, goaexpr.Int64Kind, goaexpr.UIntKind, goaexpr.UInt32Kind,
		goaexpr.UInt64Kind, goaexpr.Float32Kind, goaexpr.Float64Kind:
		n, _ := v.(json.Number)
		prim, _ := gonames.Primitive(k)
		if _, err := GoNumber(prim, string(n)); err != nil {
			return err
		}
	}
	return nil
}

// GoNumber returns the Go constant of JSON number n as a value of the Go
// numeric type prim ("int32", "float64"), in the form generated code
// writes it, or an error when prim cannot hold it.
func GoNumber(prim, n string) (string, error) {
	switch prim {
	case "int", "int32", "int64":
		i, err := strconv.ParseInt(n, 10, bitSize(prim))
		if err != nil {
			return "", fmt.Errorf("%s: %w", prim, err)
		}
		return strconv.FormatInt(i, 10), nil
	case "uint", "uint32", "uint64":
		u, err := strconv.ParseUint(n, 10, bitSize(prim))
		if err != nil {
			return "", fmt.Errorf("%s: %w", prim, err)
		}
		return strconv.FormatUint(u, 10), nil
	case "float32", "float64":
		f, err := strconv.ParseFloat(n, bitSize(prim))
		if err != nil {
			return "", fmt.Errorf("%s: %w", prim, err)
		}
		return strconv.FormatFloat(f, 'g', -1, bitSize(prim)), nil
	}
	return "", fmt.Errorf("no number literal of a %s", prim)
}

// bitSize is the size of a numeric type; int and uint are taken as 64 bits,
// as their schemas are.
func bitSize(prim string) int {
	switch prim {
	case "int32", "uint32", "float32":
		return 32
	}
	return 64
}

// oneLine renders the violations of a schema validation on one line, since a
// design error is one line of gen's report.
type oneLine struct{ err *tools.ValidationError }

// Error lists the violations, separated by semicolons.
func (o oneLine) Error() string {
	parts := make([]string, len(o.err.Violations))
	for i, v := range o.err.Violations {
		parts[i] = v.Message
		if v.Location != "" {
			parts[i] = "at " + v.Location + ": " + v.Message
		}
	}
	return strings.Join(parts, "; ")
}

// Unwrap returns the validation error.
func (o oneLine) Unwrap() error { return o.err }

// validateDefault reports the default of member, an attribute of an object
// described by owner, when its own schema rejects it. A member whose schema
// cannot be built is reported by the shape checks, and a primitive whose
// own default is not one of its own Enum values by Goa's validation, so
// each mistake is reported once.
func (c *shapeCheck) validateDefault(member *goaexpr.AttributeExpr, owner string) {
	if DefaultOf(member) == nil || goaRejectsEnumDefault(member) {
		return
	}
	if _, err := JSONSchema(member, owner); err != nil {
		return
	}
	if _, err := DefaultJSON(member, owner); err != nil {
		c.p.add(c.tool, c.at, "%w", err)
	}
}

// goaRejectsEnumDefault reports whether Goa's own attribute validation
// rejects att's default: a primitive whose default is not one of its Enum
// values.
func goaRejectsEnumDefault(att *goaexpr.AttributeExpr) bool {
	if _, ok := att.Type.(goaexpr.Primitive); !ok || att.DefaultValue == nil || att.Validation == nil || att.Validation.Values == nil {
		return false
	}
	return !slices.Contains(att.Validation.Values, att.DefaultValue)
}

// holdsDefaults reports whether a value of att holds an optional property
// with a default at any depth: whether its generated struct, or one it
// contains, gets the method that sets defaults. visiting guards against a
// type that refers to itself (reported on its own).
func holdsDefaults(att *goaexpr.AttributeExpr, visiting map[string]bool) bool {
	switch dt := att.Type.(type) {
	case *goaexpr.Array:
		return holdsDefaults(dt.ElemType, visiting)
	case *goaexpr.Map:
		return holdsDefaults(dt.ElemType, visiting)
	case *goaexpr.Object:
		for _, nat := range *dt {
			if !att.IsRequired(nat.Name) && DefaultOf(nat.Attribute) != nil || holdsDefaults(nat.Attribute, visiting) {
				return true
			}
		}
	case goaexpr.UserType:
		name := dt.Name()
		if visiting[name] {
			return false
		}
		visiting[name] = true
		defer delete(visiting, name)
		return holdsDefaults(dt.Attribute(), visiting)
	}
	return false
}
