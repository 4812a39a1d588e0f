package toolsearch

// Reading a tool's parameters JSON Schema for its words.
//
// The schema is read in one pass over its text, without decoding it into
// values: the reader checks that the text is one well-formed JSON value
// without duplicate object keys, and hands every parameter name and every
// parameter text it meets to its sink. Only strings it hands on are
// unescaped, and only those with escapes are copied.

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// maxSchemaDepth bounds the nesting of arrays and objects in a parameters
// schema, as encoding/json bounds it.
const maxSchemaDepth = 10_000

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
	data  string
	pos   int
	depth int
	emit  func(Field, string)
	keys  []string // the keys of the objects being read, innermost last
	buf   []byte   // scratch for unescaping
}

// read reads the schema data; empty data is no schema.
func (r *schemaReader) read(data string) error {
	r.data, r.pos, r.depth, r.keys = data, 0, 0, r.keys[:0]
	if len(data) == 0 {
		return nil
	}
	r.skipSpace()
	kind := r.peek()
	var err error
	if kind == '{' {
		err = r.schemaObject()
	} else {
		err = r.skipValue()
	}
	if err != nil {
		return err
	}
	r.skipSpace()
	if r.pos < len(r.data) {
		return r.errorf("data after the top-level value")
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
	if r.peek() == '{' {
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
	if r.peek() != '{' {
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
	if r.peek() != '"' {
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
	switch c := r.peek(); {
	case c == '{':
		return r.object(func(string) error { return r.skipValue() })
	case c == '[':
		return r.array(r.skipValue)
	case c == '"':
		return r.skipString()
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	case r.pos >= len(r.data):
		return r.errorf("unexpected end of input")
	default:
		return r.errorf("unexpected character %q", c)
	}
}

// object reads the object at the reader, calling member with each key once
// the reader is at the key's value; member must read the value. A key that
// appears twice is an error.
func (r *schemaReader) object(member func(key string) error) error {
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++ // '{'
	r.skipSpace()
	if r.peek() == '}' {
		r.pos++
		r.depth--
		return nil
	}
	mark := len(r.keys)
	var many map[string]bool // the keys, once there are many
	for {
		r.skipSpace()
		if r.peek() != '"' {
			return r.errorf("want an object key")
		}
		at := r.pos
		key, err := r.str()
		if err != nil {
			return err
		}
		if many == nil {
			for _, k := range r.keys[mark:] {
				if k == key {
					return r.duplicate(at, key)
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
				return r.duplicate(at, key)
			}
			many[key] = true
		}
		r.skipSpace()
		if r.peek() != ':' {
			return r.errorf("want ':' after object key")
		}
		r.pos++
		r.skipSpace()
		if err := member(key); err != nil {
			return err
		}
		r.skipSpace()
		switch r.peek() {
		case ',':
			r.pos++
		case '}':
			r.pos++
			r.keys = r.keys[:mark]
			r.depth--
			return nil
		default:
			return r.errorf("want ',' or '}' in object")
		}
	}
}

// array reads the array at the reader, calling elem with the reader at each
// element; elem must read the element.
func (r *schemaReader) array(elem func() error) error {
	if r.peek() != '[' {
		return r.skipValue()
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++ // '['
	r.skipSpace()
	if r.peek() == ']' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		r.skipSpace()
		if err := elem(); err != nil {
			return err
		}
		r.skipSpace()
		switch r.peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			r.depth--
			return nil
		default:
			return r.errorf("want ',' or ']' in array")
		}
	}
}

func (r *schemaReader) enter() error {
	if r.depth++; r.depth > maxSchemaDepth {
		return r.errorf("nesting deeper than %d", maxSchemaDepth)
	}
	return nil
}

// str reads the string at the reader and returns its value. A string
// without escapes is a part of the data; one with escapes is decoded as
// encoding/json decodes it (a lone surrogate escape becomes U+FFFD).
// Invalid UTF-8 is left as it is: the analyzer reads it as a separator,
// as it reads U+FFFD.
func (r *schemaReader) str() (string, error) {
	start := r.pos + 1
	for i := start; i < len(r.data); i++ {
		switch c := r.data[i]; {
		case c == '"':
			r.pos = i + 1
			return r.data[start:i], nil
		case c == '\\':
			return r.unescape(start, i)
		case c < 0x20:
			r.pos = i
			return "", r.errorf("control character %q in string", c)
		}
	}
	r.pos = len(r.data)
	return "", r.errorf("unterminated string")
}

// unescape reads the rest of a string from its first escape at i, with
// start the offset of its first character.
func (r *schemaReader) unescape(start, i int) (string, error) {
	b := append(r.buf[:0], r.data[start:i]...)
	for i < len(r.data) {
		c := r.data[i]
		switch {
		case c == '"':
			r.pos, r.buf = i+1, b
			return string(b), nil
		case c < 0x20:
			r.pos = i
			return "", r.errorf("control character %q in string", c)
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(r.data) {
			break
		}
		switch e := r.data[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			u, ok := hex4(r.data, i+2)
			if !ok {
				r.pos = i
				return "", r.errorf("invalid \\u escape")
			}
			i += 6
			if utf16.IsSurrogate(u) {
				if low, ok := hex4(r.data, i+2); ok && r.data[i] == '\\' && r.data[i+1] == 'u' {
					if d := utf16.DecodeRune(u, low); d != utf8.RuneError {
						b = utf8.AppendRune(b, d)
						i += 6
						continue
					}
				}
				u = utf8.RuneError
			}
			b = utf8.AppendRune(b, u)
			continue
		default:
			r.pos = i
			return "", r.errorf("invalid escape \\%c", e)
		}
		i += 2
	}
	r.pos = len(r.data)
	return "", r.errorf("unterminated string")
}

// hex4 decodes the four hexadecimal digits at s[i:], reporting whether
// there are four.
func hex4(s string, i int) (rune, bool) {
	if i < 0 || i+4 > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// skipString checks the string at the reader and moves past it.
func (r *schemaReader) skipString() error {
	for i := r.pos + 1; i < len(r.data); i++ {
		switch c := r.data[i]; {
		case c == '"':
			r.pos = i + 1
			return nil
		case c == '\\':
			if _, err := r.unescape(i, i); err != nil {
				return err
			}
			return nil
		case c < 0x20:
			r.pos = i
			return r.errorf("control character %q in string", c)
		}
	}
	r.pos = len(r.data)
	return r.errorf("unterminated string")
}

// number checks the number at the reader and moves past it. Its value is
// not read: any number that JSON's grammar allows is accepted.
func (r *schemaReader) number() error {
	i := r.pos
	if i < len(r.data) && r.data[i] == '-' {
		i++
	}
	switch {
	case i < len(r.data) && r.data[i] == '0':
		i++
	case i < len(r.data) && '1' <= r.data[i] && r.data[i] <= '9':
		i = r.digits(i)
	default:
		r.pos = i
		return r.errorf("invalid number")
	}
	if i < len(r.data) && r.data[i] == '.' {
		if j := r.digits(i + 1); j > i+1 {
			i = j
		} else {
			r.pos = i + 1
			return r.errorf("want a digit after the decimal point")
		}
	}
	if i < len(r.data) && (r.data[i] == 'e' || r.data[i] == 'E') {
		i++
		if i < len(r.data) && (r.data[i] == '+' || r.data[i] == '-') {
			i++
		}
		if j := r.digits(i); j > i {
			i = j
		} else {
			r.pos = i
			return r.errorf("want a digit in the exponent")
		}
	}
	r.pos = i
	return nil
}

// digits returns the offset of the first byte at or after i that is not a
// decimal digit.
func (r *schemaReader) digits(i int) int {
	for i < len(r.data) && '0' <= r.data[i] && r.data[i] <= '9' {
		i++
	}
	return i
}

func (r *schemaReader) literal(lit string) error {
	if len(r.data)-r.pos < len(lit) || r.data[r.pos:r.pos+len(lit)] != lit {
		return r.errorf("invalid literal, want %s", lit)
	}
	r.pos += len(lit)
	return nil
}

// peek returns the byte at the reader, or 0 at the end.
func (r *schemaReader) peek() byte {
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

func (r *schemaReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *schemaReader) duplicate(at int, key string) error {
	r.pos = at
	return r.errorf("duplicate object key %q", key)
}

func (r *schemaReader) errorf(format string, args ...any) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", r.pos, fmt.Sprintf(format, args...))
}
