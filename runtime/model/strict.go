package model

// Strict decoding of stored conversations. A history is reloaded from
// storage or received from another process, so it decodes exactly or not at
// all: encoding/json alone drops unknown keys, binds a key to a field whatever
// its case ("Text" fills "text") and lets a repeated key overwrite the first,
// each of which would silently change what was recorded.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// decodeStrict decodes one JSON value into v. Every object key on the way
// must be a JSON name of its struct, spelled exactly and given once, and no
// data may follow the value.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := checkKeys(dec, reflect.TypeOf(v).Elem(), ""); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// checkKeys reads the next JSON value from dec and checks the keys of the
// objects in it against type t; at is the value's JSON Pointer. Values of
// types that decode themselves, or that hold no structs, are only read.
func checkKeys(dec *json.Decoder, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || (t.Kind() != reflect.Struct && t.Kind() != reflect.Slice) {
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch {
	case tok == json.Delim('[') && t.Kind() == reflect.Slice:
		for i := 0; dec.More(); i++ {
			if err := checkKeys(dec, t.Elem(), fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	case tok == json.Delim('{') && t.Kind() == reflect.Struct:
		fields := jsonFields(t)
		seen := make(map[string]bool, len(fields))
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key := tok.(string) // object keys are strings
			ft, ok := fields[key]
			switch {
			case !ok:
				return fmt.Errorf("unknown field %q at %q", key, at)
			case seen[key]:
				return fmt.Errorf("field %q given twice at %q", key, at)
			}
			seen[key] = true
			if err := checkKeys(dec, ft, at+"/"+key); err != nil {
				return err
			}
		}
	default:
		if d, ok := tok.(json.Delim); ok && (d == '[' || d == '{') {
			return fmt.Errorf("cannot unmarshal %s at %q into %s", kindOf(d), at, t)
		}
		return nil // a scalar where t wants more: the decoder reports it
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

func kindOf(d json.Delim) string {
	if d == '[' {
		return "array"
	}
	return "object"
}

// jsonFields maps the JSON names of struct type t to their field types.
// The conversation types have no embedded structs.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}
