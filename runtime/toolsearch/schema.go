package toolsearch

// Reading a tool's parameters JSON Schema for its words.
//
// The schema is read in one pass over its text, without decoding it into
// values, with the runtime's one JSON scanner (runtime/internal/jsonscan)
// and its limits: the reader checks that the text is one well-formed JSON
// value without duplicate object keys, and hands every parameter name and
// every parameter text it meets to its sink. Only strings it hands on are
// unescaped, and only those with escapes are copied. The scanner is
// lenient: invalid UTF-8 is left as it is (the analyzer reads it as a
// separator, as it reads U+FFFD) and an unpaired surrogate escape is
// U+FFFD, as encoding/json decodes them.

import (
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
)

// maxLinearKeys is the number of keys of one object that are checked for
// duplicates by comparing them in turn; a larger object uses a set.
const maxLinearKeys = 16

// errSchemaKind reports a parameters document that is JSON but not a
// schema.
var errSchemaKind = errors.New("JSON Schema must be an object or a boolean")

// schemaReader reads a parameters JSON Schema. emit receives each parameter
// name (the member names of "properties", nested ones too) and each
// parameter text (titles, descriptions and enumerated strings) of every
// subschema.
type schemaReader struct {
	s    jsonscan.Scanner[string]
	emit func(Field, string)
	keys []string // the keys of the objects being read, innermost last
	buf  []byte   // scratch for unescaping
}

// read reads the schema data; empty data is no schema.
func (r *schemaReader) read(data string) error {
	r.s.Reset(data, true)
	r.keys = r.keys[:0]
	if len(data) == 0 {
		return nil
	}
	r.s.SkipSpace()
	kind := r.s.Peek()
	var err error
	if kind == '{' {
		err = r.schemaObject()
	} else {
		err = r.skipValue()
	}
	if err != nil {
		return err
	}
	r.s.SkipSpace()
	if !r.s.AtEnd() {
		return r.s.Errorf("data after the top-level value")
	}
	switch kind {
	case '"':
		return fmt.Errorf("%w, got a string", errSchemaKind)
	case '[':
		return fmt.Errorf("%w, got an array", errSchemaKind)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return fmt.Errorf("%w, got a number", errSchemaKind)
	}
	return nil // an object, a boolean or null
}

// subschema reads a value in the place of a subschema: an object is read as
// a schema, anything else is skipped.
func (r *schemaReader) subschema() error {
	if r.s.Peek() == '{' {
		return r.schemaObject()
	}
	return r.skipValue()
}

// schemaObject reads a schema object: the keywords that hold parameter
// names, parameter texts or subschemas are read, the others skipped.
func (r *schemaReader) schemaObject() error {
	return r.object(func(key string) error {
		switch key {
		case "title", "description":
			return r.text()
		case "enum":
			return r.array(r.text)
		case "properties":
			return r.members(true)
		case "$defs", "definitions", "patternProperties", "dependentSchemas":
			return r.members(false)
		case "prefixItems", "anyOf", "oneOf", "allOf":
			return r.array(r.subschema)
		case "items", "additionalProperties", "not", "contains", "propertyNames",
			"unevaluatedItems", "unevaluatedProperties", "if", "then", "else":
			return r.subschema()
		}
		return r.skipValue()
	})
}

// members reads an object whose member values are subschemas; with named,
// its keys are parameter names. Any other value is skipped.
func (r *schemaReader) members(named bool) error {
	if r.s.Peek() != '{' {
		return r.skipValue()
	}
	return r.object(func(key string) error {
		if named {
			r.emit(FieldParamName, key)
		}
		return r.subschema()
	})
}

// text reads a value that is a parameter text when it is a string.
func (r *schemaReader) text() error {
	if r.s.Peek() != '"' {
		return r.skipValue()
	}
	s, err := r.str()
	if err != nil {
		return err
	}
	r.emit(FieldParamDescription, s)
	return nil
}

// skipValue checks the value at the reader and moves past it.
func (r *schemaReader) skipValue() error {
	switch c := r.s.Peek(); {
	case r.s.AtEnd():
		return r.s.Errorf("unexpected end of input")
	case c == '{':
		return r.object(func(string) error { return r.skipValue() })
	case c == '[':
		return r.array(r.skipValue)
	case c == '"':
		_, err := r.s.String()
		return err
	case c == '-' || '0' <= c && c <= '9':
		_, err := r.s.Number()
		return err
	default:
		return r.s.Literal()
	}
}

// object reads the object at the reader, calling member with each key once
// the reader is at the key's value; member must read the value. A key that
// appears twice is an error.
func (r *schemaReader) object(member func(key string) error) error {
	if err := r.s.Enter(); err != nil {
		return err
	}
	r.s.Next() // '{'
	r.s.SkipSpace()
	if r.s.Peek() == '}' {
		r.s.Next()
		r.s.Leave()
		return nil
	}
	mark := len(r.keys)
	var many map[string]bool // the keys, once there are many
	for {
		r.s.SkipSpace()
		if r.s.Peek() != '"' {
			return r.s.Errorf("want an object key")
		}
		at := r.s.Pos()
		key, err := r.str()
		if err != nil {
			return err
		}
		if many == nil {
			for _, k := range r.keys[mark:] {
				if k == key {
					return r.s.ErrorAt(at, "duplicate object key %q", key)
				}
			}
			r.keys = append(r.keys, key)
			if len(r.keys)-mark > maxLinearKeys {
				many = make(map[string]bool, 2*maxLinearKeys)
				for _, k := range r.keys[mark:] {
					many[k] = true
				}
			}
		} else {
			if many[key] {
				return r.s.ErrorAt(at, "duplicate object key %q", key)
			}
			many[key] = true
		}
		r.s.SkipSpace()
		if r.s.Peek() != ':' {
			return r.s.Errorf("want ':' after object key")
		}
		r.s.Next()
		r.s.SkipSpace()
		if err := member(key); err != nil {
			return err
		}
		r.s.SkipSpace()
		switch r.s.Peek() {
		case ',':
			r.s.Next()
		case '}':
			r.s.Next()
			r.keys = r.keys[:mark]
			r.s.Leave()
			return nil
		default:
			return r.s.Errorf("want ',' or '}' in object")
		}
	}
}

// array reads the array at the reader, calling elem with the reader at each
// element; elem must read the element.
func (r *schemaReader) array(elem func() error) error {
	if r.s.Peek() != '[' {
		return r.skipValue()
	}
	if err := r.s.Enter(); err != nil {
		return err
	}
	r.s.Next() // '['
	r.s.SkipSpace()
	if r.s.Peek() == ']' {
		r.s.Next()
		r.s.Leave()
		return nil
	}
	for {
		r.s.SkipSpace()
		if err := elem(); err != nil {
			return err
		}
		r.s.SkipSpace()
		switch r.s.Peek() {
		case ',':
			r.s.Next()
		case ']':
			r.s.Next()
			r.s.Leave()
			return nil
		default:
			return r.s.Errorf("want ',' or ']' in array")
		}
	}
}

// str reads the string at the reader and returns its value: a string
// without escapes is a part of the data; one with escapes is decoded.
func (r *schemaReader) str() (string, error) {
	start := r.s.Pos()
	plain, err := r.s.String()
	if err != nil {
		return "", err
	}
	token := r.s.Input()[start:r.s.Pos()]
	if plain {
		return token[1 : len(token)-1], nil
	}
	r.buf = jsonscan.AppendString(r.buf[:0], token)
	return string(r.buf), nil
}
