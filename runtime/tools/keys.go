package tools

// Exact property names for typed decoding. encoding/json binds an object key
// to a struct field whatever its case, so {"id": "a", "ID": "b"} passes a
// schema that constrains only "id" and then decodes "b" into the field
// tagged "id": the value that runs is not the value that was validated. A
// TypedCodec therefore accepts only keys spelled exactly as T's JSON names.

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// keySet is the shape of the JSON objects a Go type decodes from: for a
// struct, its exact JSON names and the shape of each field's value; for a
// slice, array or map, the shape of its elements. A nil keySet accepts any
// value.
type keySet struct {
	fields map[string]*keySet // a struct's JSON names; nil for containers
	elem   *keySet            // a container's elements
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// keySetOf returns the shape of t, or nil when t decodes without struct
// fields (scalars, interfaces, types that decode themselves).
func keySetOf(t reflect.Type) *keySet {
	return buildKeySet(t, make(map[reflect.Type]*keySet))
}

func buildKeySet(t reflect.Type, seen map[reflect.Type]*keySet) *keySet {
	for {
		if decodesItself(t) {
			return nil
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	if ks, ok := seen[t]; ok {
		return ks // a recursive type
	}
	switch t.Kind() {
	case reflect.Struct:
		ks := &keySet{fields: make(map[string]*keySet)}
		seen[t] = ks
		addFields(ks, t, seen)
		return ks
	case reflect.Slice, reflect.Array, reflect.Map:
		ks := &keySet{}
		seen[t] = ks
		ks.elem = buildKeySet(t.Elem(), seen)
		return ks
	}
	return nil
}

func decodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshalerType) || pt.Implements(jsonUnmarshalerType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

// addFields adds the JSON names of struct type t to ks as encoding/json
// sees them: tagged names, field names otherwise, "-" skipped, and the
// fields of untagged embedded structs promoted unless a shallower field has
// their name.
func addFields(ks *keySet, t reflect.Type, seen map[reflect.Type]*keySet) {
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := ks.fields[name]; !ok {
			ks.fields[name] = buildKeySet(f.Type, seen)
		}
	}
	for _, ft := range embedded {
		inner := keySet{fields: make(map[string]*keySet)}
		addFields(&inner, ft, seen)
		for name, sub := range inner.fields {
			if _, ok := ks.fields[name]; !ok {
				ks.fields[name] = sub
			}
		}
	}
}

// check reports the first key, in key order, of an object in doc (a value
// as jsonschema.UnmarshalJSON returns it) that is not spelled exactly as a
// JSON name of the struct it decodes into; at is doc's JSON Pointer.
func (ks *keySet) check(doc any, at string) error {
	if ks == nil {
		return nil
	}
	switch v := doc.(type) {
	case map[string]any:
		if ks.fields == nil {
			return checkMembers(v, func(string) *keySet { return ks.elem }, at)
		}
		bad := ""
		for k := range v {
			if _, ok := ks.fields[k]; !ok && (bad == "" || k < bad) {
				bad = k
			}
		}
		if bad != "" {
			return fmt.Errorf("unknown field %q at %q: no field has that exact JSON name", bad, at)
		}
		return checkMembers(v, func(k string) *keySet { return ks.fields[k] }, at)
	case []any:
		if ks.elem == nil {
			return nil
		}
		for i, e := range v {
			if err := ks.elem.check(e, fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkMembers checks every member of object against the shape shapeOf
// gives its key, and returns the error of the smallest failing key, so the
// error does not depend on map order.
func checkMembers(object map[string]any, shapeOf func(key string) *keySet, at string) error {
	var first error
	firstKey := ""
	for k, e := range object {
		if first != nil && k > firstKey {
			continue
		}
		sub := shapeOf(k)
		if sub == nil {
			continue // a value of any shape; no path to build
		}
		if err := sub.check(e, at+"/"+escapePointer(k)); err != nil {
			first, firstKey = err, k
		}
	}
	return first
}

func escapePointer(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(token)
}
