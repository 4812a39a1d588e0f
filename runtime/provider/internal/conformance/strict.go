package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Strict decodes data into v, a pointer to an SDK type, after checking
// data against v's type: every object key is a JSON name of its struct
// (unless the struct takes extra fields), every required field is
// present, every value has the JSON type its field wants, every constant
// has its one value, and a union's value fits one of its variants. The
// error names the first failure by JSON Pointer.
func Strict(data []byte, v any) error { return checker{}.decode(data, v) }

// StrictResponse is Strict for a response: a null stands for an absent
// value, as the providers send it for fields without one, and required
// fields are not enforced (a response type lists what the provider may
// send).
func StrictResponse(data []byte, v any) error { return checker{response: true}.decode(data, v) }

// checker walks decoded JSON against an SDK type.
type checker struct {
	response bool
}

func (c checker) decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	if err := c.check(doc, reflect.TypeOf(v).Elem(), ""); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// check checks value, decoded JSON, against type t at pointer at.
func (c checker) check(value any, t reflect.Type, at string) error {
	if value == nil && c.response {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage || t.Kind() == reflect.Interface {
		return nil
	}
	if inner, ok := optValue(t); ok {
		return c.check(value, inner, at)
	}
	if c, ok := constantValue(t); ok {
		if s, isString := value.(string); !isString || s != c {
			return fmt.Errorf("at %q: %v, want the constant %q", pointer(at), value, c)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if isUnion(t) {
			return c.checkUnion(value, t, at)
		}
		return c.checkObject(value, t, at)
	case reflect.Slice, reflect.Array:
		list, ok := value.([]any)
		if !ok {
			return mistyped(value, "an array", at)
		}
		for i, e := range list {
			if err := c.check(e, t.Elem(), fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		obj, ok := value.(map[string]any)
		if !ok {
			return mistyped(value, "an object", at)
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if err := c.check(obj[k], t.Elem(), at+"/"+k); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		if _, ok := value.(string); !ok {
			return mistyped(value, "a string", at)
		}
	case reflect.Bool:
		if _, ok := value.(bool); !ok {
			return mistyped(value, "a boolean", at)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := value.(json.Number)
		if !ok {
			return mistyped(value, "an integer", at)
		}
		if _, err := n.Int64(); err != nil {
			return mistyped(value, "an integer", at)
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := value.(json.Number); !ok {
			return mistyped(value, "a number", at)
		}
	default:
		return fmt.Errorf("at %q: no check for Go type %s", pointer(at), t)
	}
	return nil
}

// checkObject checks a JSON object against a struct's json fields.
func (c checker) checkObject(value any, t reflect.Type, at string) error {
	if t.String() == "time.Time" {
		if _, ok := value.(string); !ok {
			return mistyped(value, "a date-time string", at)
		}
		return nil
	}
	obj, ok := value.(map[string]any)
	if !ok {
		return mistyped(value, "an object", at)
	}
	fields, extras := jsonFields(t)
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		f, ok := fields[k]
		if !ok {
			if extras {
				continue
			}
			return fmt.Errorf("at %q: unknown field %q of %s", pointer(at), k, t.Name())
		}
		if err := c.check(obj[k], f.Type, at+"/"+k); err != nil {
			return err
		}
	}
	for name, f := range fields {
		if _, ok := obj[name]; !ok && !c.response && f.Tag.Get("api") == "required" {
			if _, isConst := constantValue(f.Type); isConst {
				continue // a constant may be left out: it has one value
			}
			return fmt.Errorf("at %q: required field %q of %s is missing", pointer(at), name, t.Name())
		}
	}
	return nil
}

// checkUnion checks that value fits at least one variant of a union. A
// response union also flattens its object variants into named fields: an
// object is checked against those.
func (c checker) checkUnion(value any, t reflect.Type, at string) error {
	if _, isObject := value.(map[string]any); isObject {
		if fields, _ := jsonFields(t); len(fields) > 0 {
			return c.checkObject(value, t, at)
		}
	}
	var errs []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || !strings.Contains(f.Tag.Get("json"), "inline") {
			continue
		}
		err := c.check(value, f.Type, at)
		if err == nil {
			return nil
		}
		errs = append(errs, f.Name+": "+err.Error())
	}
	return fmt.Errorf("at %q: fits no variant of %s (%s)", pointer(at), t.Name(), strings.Join(errs, "; "))
}

// isUnion reports an SDK union: a struct of inline variant fields.
func isUnion(t reflect.Type) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() && strings.HasPrefix(f.Name, "Of") && strings.Contains(f.Tag.Get("json"), "inline") {
			return true
		}
	}
	return false
}

// jsonFields maps a struct's JSON names to its fields, and reports whether
// it takes extra fields.
func jsonFields(t reflect.Type) (map[string]reflect.StructField, bool) {
	fields := make(map[string]reflect.StructField)
	extras := false
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Tag.Get("api") == "extrafields" {
			extras = true
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "" {
			continue
		}
		fields[name] = f
	}
	return fields, extras
}

// optValue returns T of an SDK param.Opt[T].
func optValue(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct || !strings.HasPrefix(t.Name(), "Opt[") || !strings.HasSuffix(t.PkgPath(), "packages/param") {
		return nil, false
	}
	f, ok := t.FieldByName("Value")
	if !ok {
		return nil, false
	}
	return f.Type, true
}

// constantValue returns the value of an SDK constant type (package
// shared/constant), a string type whose Default method returns it.
func constantValue(t reflect.Type) (string, bool) {
	if t.Kind() != reflect.String || !strings.HasSuffix(t.PkgPath(), "/constant") {
		return "", false
	}
	m, ok := t.MethodByName("Default")
	if !ok || m.Type.NumIn() != 1 || m.Type.NumOut() != 1 {
		return "", false
	}
	out := m.Func.Call([]reflect.Value{reflect.Zero(t)})[0]
	return out.String(), true
}

func mistyped(value any, want, at string) error {
	return fmt.Errorf("at %q: %s, want %s", pointer(at), describe(value), want)
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + fmt.Sprint(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func pointer(at string) string {
	if at == "" {
		return "/"
	}
	return at
}
