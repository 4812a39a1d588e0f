package discovery

// Checking the shape of a catalog entry's parameters in one pass.
//
// NewCatalog checks every entry's parameters as checkParametersShape does
// (tools.Canonicalize accepts them; the root is an object whose "type" is
// "object") and keeps them compacted as json.Compact would. shapeReader does
// all three in one pass over the bytes, accepting exactly what
// tools.Canonicalize accepts (both read with the runtime's one JSON scanner,
// runtime/internal/jsonscan, and its limits), so a 10,000-entry catalog
// neither decodes nor canonicalizes 10,000 schemas.

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// maxLinearKeys is the number of keys of one object checked for duplicates
// by comparing them in turn; a larger object uses a set.
const maxLinearKeys = 16

// compactParameters returns raw, which must pass checkParametersShape, in
// its compact form, appended to dst; the error is the one
// checkParametersShape reports.
func compactParameters(dst []byte, raw json.RawMessage) ([]byte, error) {
	var r shapeReader
	return r.compact(dst, raw)
}

// compact is compactParameters reusing the reader's scratch space.
func (r *shapeReader) compact(dst []byte, raw json.RawMessage) ([]byte, error) {
	r.s.Reset(raw, false)
	r.out = dst
	r.keys, r.keyBytes = r.keys[:0], r.keyBytes[:0]
	r.rootType, r.rootObject = nil, false
	r.s.SkipSpace()
	if r.s.AtEnd() {
		return dst, fmt.Errorf("%w: missing", ErrInvalidParameters)
	}
	isObject := r.s.Peek() == '{'
	if err := r.value(0); err != nil {
		return dst, fmt.Errorf("%w: %w", ErrInvalidParameters, err)
	}
	r.s.SkipSpace()
	if !r.s.AtEnd() {
		return dst, fmt.Errorf("%w: %w", ErrInvalidParameters, r.s.Errorf("unexpected data after the top-level value"))
	}
	switch {
	case !isObject:
		return dst, fmt.Errorf("%w: the schema is not a JSON object", ErrInvalidParameters)
	case r.rootType == nil:
		return dst, fmt.Errorf(`%w: the schema has no "type" at its root, want "object"`, ErrInvalidParameters)
	case !r.rootObject:
		return dst, fmt.Errorf(`%w: the schema's root "type" is %s, want "object"`, ErrInvalidParameters, r.rootType)
	}
	return r.out, nil
}

// span is a key's bytes, keyBytes[start:end].
type span struct{ start, end int }

// shapeReader checks JSON as tools.Canonicalize does and appends it to out
// without the white space between tokens.
type shapeReader struct {
	s   jsonscan.Scanner[[]byte]
	out []byte
	// keys holds the decoded keys of the objects being read, innermost
	// last, as spans of keyBytes.
	keys     []span
	keyBytes []byte
	// rootType is the raw value of the root object's "type";
	// rootObject reports whether it is the string "object".
	rootType   []byte
	rootObject bool
}

// value reads the value at the scanner; depth is 0 for the root.
func (r *shapeReader) value(depth int) error {
	switch c := r.s.Peek(); {
	case r.s.AtEnd():
		return r.s.Errorf("unexpected end of input")
	case c == '{':
		return r.object(depth)
	case c == '[':
		return r.array(depth)
	case c == '"':
		return r.str(false)
	case c == '-' || '0' <= c && c <= '9':
		return r.token(r.s.Number())
	default:
		start := r.s.Pos()
		if err := r.s.Literal(); err != nil {
			return err
		}
		r.out = append(r.out, r.s.Input()[start:r.s.Pos()]...)
		return nil
	}
}

// token appends the number n that the scanner read, or returns err.
func (r *shapeReader) token(n jsonscan.Number, err error) error {
	if err != nil {
		return err
	}
	r.out = append(r.out, r.s.Input()[n.Start:n.End]...)
	return nil
}

func (r *shapeReader) object(depth int) error {
	if err := r.s.Enter(); err != nil {
		return err
	}
	r.s.Next() // '{'
	r.out = append(r.out, '{')
	r.s.SkipSpace()
	if r.s.Peek() == '}' {
		r.s.Next()
		r.s.Leave()
		r.out = append(r.out, '}')
		return nil
	}
	mark, keyMark := len(r.keys), len(r.keyBytes)
	var many map[string]bool // the keys, once there are many
	for first := true; ; first = false {
		if !first {
			r.out = append(r.out, ',')
		}
		r.s.SkipSpace()
		if r.s.Peek() != '"' {
			return r.s.Errorf("want an object key")
		}
		keyStart := len(r.keyBytes)
		if err := r.str(true); err != nil {
			return err
		}
		key := r.keyBytes[keyStart:]
		if many == nil {
			for _, k := range r.keys[mark:] {
				if string(r.keyBytes[k.start:k.end]) == string(key) {
					return fmt.Errorf("%w: duplicate object key %q", tools.ErrInvalidJSON, key)
				}
			}
			r.keys = append(r.keys, span{keyStart, len(r.keyBytes)})
			if len(r.keys)-mark > maxLinearKeys {
				many = make(map[string]bool, 2*maxLinearKeys)
				for _, k := range r.keys[mark:] {
					many[string(r.keyBytes[k.start:k.end])] = true
				}
			}
		} else {
			if many[string(key)] {
				return fmt.Errorf("%w: duplicate object key %q", tools.ErrInvalidJSON, key)
			}
			many[string(key)] = true
		}
		r.s.SkipSpace()
		if r.s.Peek() != ':' {
			return r.s.Errorf("want ':' after object key")
		}
		r.s.Next()
		r.out = append(r.out, ':')
		r.s.SkipSpace()
		start, outStart := r.s.Pos(), len(r.out)
		if err := r.value(depth + 1); err != nil {
			return err
		}
		if depth == 0 && string(r.keyBytes[keyStart:keyStart+len(key)]) == "type" {
			r.rootType = r.s.Input()[start:r.s.Pos()]
			r.rootObject = isObjectType(r.out[outStart:])
		}
		r.s.SkipSpace()
		if r.s.AtEnd() {
			return r.s.Errorf("unexpected end of input in object")
		}
		switch r.s.Peek() {
		case '}':
			r.s.Next()
			r.s.Leave()
			r.out = append(r.out, '}')
			r.keys, r.keyBytes = r.keys[:mark], r.keyBytes[:keyMark]
			return nil
		case ',':
			r.s.Next()
		default:
			return r.s.Errorf("want ',' or '}' in object")
		}
	}
}

func (r *shapeReader) array(depth int) error {
	if err := r.s.Enter(); err != nil {
		return err
	}
	r.s.Next() // '['
	r.out = append(r.out, '[')
	r.s.SkipSpace()
	if r.s.Peek() == ']' {
		r.s.Next()
		r.s.Leave()
		r.out = append(r.out, ']')
		return nil
	}
	for first := true; ; first = false {
		if !first {
			r.out = append(r.out, ',')
		}
		r.s.SkipSpace()
		if err := r.value(depth + 1); err != nil {
			return err
		}
		r.s.SkipSpace()
		if r.s.AtEnd() {
			return r.s.Errorf("unexpected end of input in array")
		}
		switch r.s.Peek() {
		case ']':
			r.s.Next()
			r.s.Leave()
			r.out = append(r.out, ']')
			return nil
		case ',':
			r.s.Next()
		default:
			return r.s.Errorf("want ',' or ']' in array")
		}
	}
}

// str checks the string at the scanner and copies it to out as it is
// written. With decode, it appends the string's value to keyBytes.
func (r *shapeReader) str(decode bool) error {
	start := r.s.Pos()
	plain, err := r.s.String()
	if err != nil {
		return err
	}
	token := r.s.Input()[start:r.s.Pos()]
	r.out = append(r.out, token...)
	switch {
	case !decode:
	case plain:
		r.keyBytes = append(r.keyBytes, token[1:len(token)-1]...)
	default:
		r.keyBytes = jsonscan.AppendString(r.keyBytes, token)
	}
	return nil
}

// isObjectType reports whether the JSON value v is the string "object".
func isObjectType(v []byte) bool {
	if string(v) == `"object"` {
		return true
	}
	var s string
	return len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil && s == "object"
}
