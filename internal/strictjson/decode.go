package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects in a document, as
// encoding/json's own decoder does.
const MaxDepth = 10000

// Errors for errors.Is. Syntax and type errors are encoding/json's own
// (*json.SyntaxError, *json.UnmarshalTypeError), wrapped.
var (
	// ErrSyntax is matched by every malformed document.
	ErrSyntax = errors.New("invalid JSON")
	// ErrDuplicateKey: an object gives one key twice.
	ErrDuplicateKey = errors.New("duplicate object key")
	// ErrUnknownField: a key names no field of the struct it decodes
	// into, including a key that differs from a field's name only in case.
	ErrUnknownField = errors.New("unknown field")
	// ErrTrailingData: data follows the JSON value.
	ErrTrailingData = errors.New("data after the top-level value")
	// ErrInvalidUTF8: the document is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	// ErrTooDeep: the document nests deeper than MaxDepth.
	ErrTooDeep = errors.New("JSON nests too deep")
)

// Decode decodes the single JSON value in data into v, a non-nil pointer,
// strictly; see the package documentation. On error v is left unchanged
// when the document's keys were refused, and in an unspecified state when
// encoding/json refused a value.
func Decode(data []byte, v any) error {
	if err := Check(data, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	return nil
}

// Check reads the single JSON value in data and checks it against type t
// (nil: any value) without decoding it; Decode is Check followed by
// encoding/json.
func Check(data []byte, t reflect.Type) error {
	if !utf8.Valid(data) {
		return ErrInvalidUTF8
	}
	w := walker{dec: json.NewDecoder(bytes.NewReader(data)), fields: map[reflect.Type]map[string]reflect.Type{}}
	w.dec.UseNumber()
	if err := w.value(t, nil, 0); err != nil {
		return err
	}
	switch _, err := w.dec.Token(); {
	case err == io.EOF:
		return nil
	case err != nil:
		return fmt.Errorf("%w: %w", ErrSyntax, err)
	default:
		return ErrTrailingData
	}
}

// walker reads one document token by token, following the Go type each
// value decodes into.
type walker struct {
	dec    *json.Decoder
	fields map[reflect.Type]map[string]reflect.Type
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether t decodes from JSON by its own method.
func decodesItself(t reflect.Type) bool {
	return t.Implements(unmarshalerType) || t.Implements(textUnmarshalerType)
}

// location is the JSON Pointer of a value, built only when an error names
// it: its parent's location and its key or index.
type location struct {
	parent *location
	key    string
	index  int // when key is "" and parent is not nil
	isKey  bool
}

func (l *location) String() string {
	if l == nil {
		return ""
	}
	if l.isKey {
		return l.parent.String() + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(l.key)
	}
	return l.parent.String() + "/" + strconv.Itoa(l.index)
}

// value reads the next value, which decodes into t (nil: opaque); at is its
// location.
func (w *walker) value(t reflect.Type, at *location, depth int) error {
	t = selfDecoding(t)
	if t == nil || (t.Kind() != reflect.Struct && t.Kind() != reflect.Map && t.Kind() != reflect.Slice && t.Kind() != reflect.Array) {
		return w.opaque(at)
	}
	tok, err := w.dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar; whether it fits t is encoding/json's to say
	}
	if depth >= MaxDepth {
		return fmt.Errorf("%w: more than %d levels at %s", ErrTooDeep, MaxDepth, pointer(at))
	}
	switch d {
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, &location{parent: at, index: i}, depth+1); err != nil {
				return err
			}
		}
	case '{':
		if err := w.object(t, at, depth); err != nil {
			return err
		}
	}
	if _, err := w.dec.Token(); err != nil { // the closing delimiter
		return syntaxError(err)
	}
	return nil
}

// object reads the members of an object whose '{' was read.
func (w *walker) object(t reflect.Type, at *location, depth int) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = w.fieldsOf(t)
		case reflect.Map:
			elem = t.Elem()
		}
	}
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return syntaxError(err)
		}
		key, _ := tok.(string) // object keys are strings
		if seen[key] {
			return fmt.Errorf("%w %q at %s", ErrDuplicateKey, key, pointer(at))
		}
		seen[key] = true
		vt := elem
		if fields != nil {
			ft, ok := fields[key]
			if !ok {
				return unknownField(key, at, fields)
			}
			vt = ft
		}
		if err := w.value(vt, &location{parent: at, key: key, isKey: true}, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// syntaxError wraps a decoder error inside a value; an end of input there
// is io.ErrUnexpectedEOF, as encoding/json reports it.
func syntaxError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: %w", ErrSyntax, unexpectedEnd{})
	}
	return fmt.Errorf("%w: %w", ErrSyntax, err)
}

// unexpectedEnd is an end of input inside a value; it matches
// io.ErrUnexpectedEOF.
type unexpectedEnd struct{}

func (unexpectedEnd) Error() string { return "unexpected end of JSON input" }
func (unexpectedEnd) Unwrap() error { return io.ErrUnexpectedEOF }

func unknownField(key string, at *location, fields map[string]reflect.Type) error {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return fmt.Errorf("%w %q at %s: the field is %q, spelled exactly", ErrUnknownField, key, pointer(at), name)
		}
	}
	return fmt.Errorf("%w %q at %s", ErrUnknownField, key, pointer(at))
}

// selfDecoding strips pointers from t and returns nil for a type that
// decodes itself or holds arbitrary JSON.
func selfDecoding(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		if decodesItself(t) {
			return nil
		}
		t = t.Elem()
	}
	if decodesItself(t) || decodesItself(reflect.PointerTo(t)) || t.Kind() == reflect.Interface {
		return nil
	}
	return t
}

// fieldsOf maps the JSON names of struct type t, its embedded structs'
// promoted fields included, to their types.
func (w *walker) fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := w.fields[t]; ok {
		return f
	}
	f := map[string]reflect.Type{}
	addFields(f, t, 0)
	w.fields[t] = f
	return f
}

// addFields adds the fields of t to f; a name already there (from an outer
// struct) wins, as encoding/json's shallower field does.
func addFields(f map[string]reflect.Type, t reflect.Type, depth int) {
	if depth > 16 {
		return
	}
	var embedded []reflect.Type
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				embedded = append(embedded, et)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, ok := f[name]; !ok {
			f[name] = sf.Type
		}
	}
	for _, et := range embedded {
		addFields(f, et, depth+1)
	}
}

// pointer renders a location for messages; the root is "the top level".
func pointer(at *location) string {
	if at == nil {
		return "the top level"
	}
	return strconv.Quote(at.String())
}
