package discovery

// Checking the shape of a catalog entry's parameters in one pass.
//
// NewCatalog checks every entry's parameters as checkParametersShape does
// (tools.Canonicalize accepts them; the root is an object whose "type" is
// "object") and keeps them compacted as json.Compact would. shapeReader does
// all three in one pass over the bytes, accepting exactly what
// tools.Canonicalize accepts, so a 10,000-entry catalog neither decodes nor
// canonicalizes 10,000 schemas.

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// The limits of tools.Canonicalize.
const (
	maxShapeDepth    = 1000
	maxShapeExponent = 1_000_000_000
	// maxLinearKeys is the number of keys of one object checked for
	// duplicates by comparing them in turn; a larger object uses a set.
	maxLinearKeys = 16
)

// compactParameters returns raw, which must pass checkParametersShape, in
// its compact form, appended to dst; the error is the one
// checkParametersShape reports.
func compactParameters(dst []byte, raw json.RawMessage) ([]byte, error) {
	var r shapeReader
	return r.compact(dst, raw)
}

// compact is compactParameters reusing the reader's scratch space.
func (r *shapeReader) compact(dst []byte, raw json.RawMessage) ([]byte, error) {
	r.in, r.pos, r.out = raw, 0, dst
	r.keys, r.keyBytes = r.keys[:0], r.keyBytes[:0]
	r.rootType, r.rootObject = nil, false
	r.skipSpace()
	if r.pos == len(r.in) {
		return dst, fmt.Errorf("%w: missing", ErrInvalidParameters)
	}
	isObject := r.in[r.pos] == '{'
	if err := r.value(0); err != nil {
		return dst, fmt.Errorf("%w: %w", ErrInvalidParameters, err)
	}
	r.skipSpace()
	if r.pos != len(r.in) {
		return dst, fmt.Errorf("%w: %w", ErrInvalidParameters, r.errorf("unexpected data after the top-level value"))
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
	in  []byte
	pos int
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

func (r *shapeReader) value(depth int) error {
	if depth > maxShapeDepth {
		return r.errorf("nesting deeper than %d", maxShapeDepth)
	}
	if r.pos >= len(r.in) {
		return r.errorf("unexpected end of input")
	}
	switch c := r.in[r.pos]; {
	case c == '{':
		return r.object(depth)
	case c == '[':
		return r.array(depth)
	case c == '"':
		return r.str(false)
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(r.in)-r.pos >= len(lit) && string(r.in[r.pos:r.pos+len(lit)]) == lit {
			r.out = append(r.out, lit...)
			r.pos += len(lit)
			return nil
		}
	}
	return r.errorf("unexpected character %q", r.in[r.pos])
}

func (r *shapeReader) object(depth int) error {
	r.pos++ // '{'
	r.out = append(r.out, '{')
	r.skipSpace()
	if r.pos < len(r.in) && r.in[r.pos] == '}' {
		r.pos++
		r.out = append(r.out, '}')
		return nil
	}
	mark, keyMark := len(r.keys), len(r.keyBytes)
	var many map[string]bool // the keys, once there are many
	for first := true; ; first = false {
		if !first {
			r.out = append(r.out, ',')
		}
		r.skipSpace()
		if r.pos >= len(r.in) || r.in[r.pos] != '"' {
			return r.errorf("want an object key")
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
		r.skipSpace()
		if r.pos >= len(r.in) || r.in[r.pos] != ':' {
			return r.errorf("want ':' after object key")
		}
		r.pos++
		r.out = append(r.out, ':')
		r.skipSpace()
		start, outStart := r.pos, len(r.out)
		if err := r.value(depth + 1); err != nil {
			return err
		}
		if depth == 0 && string(r.keyBytes[keyStart:keyStart+len(key)]) == "type" {
			r.rootType = r.in[start:r.pos]
			r.rootObject = isObjectType(r.out[outStart:])
		}
		r.skipSpace()
		if r.pos >= len(r.in) {
			return r.errorf("unexpected end of input in object")
		}
		switch r.in[r.pos] {
		case '}':
			r.pos++
			r.out = append(r.out, '}')
			r.keys, r.keyBytes = r.keys[:mark], r.keyBytes[:keyMark]
			return nil
		case ',':
			r.pos++
		default:
			return r.errorf("want ',' or '}' in object")
		}
	}
}

func (r *shapeReader) array(depth int) error {
	r.pos++ // '['
	r.out = append(r.out, '[')
	r.skipSpace()
	if r.pos < len(r.in) && r.in[r.pos] == ']' {
		r.pos++
		r.out = append(r.out, ']')
		return nil
	}
	for first := true; ; first = false {
		if !first {
			r.out = append(r.out, ',')
		}
		r.skipSpace()
		if err := r.value(depth + 1); err != nil {
			return err
		}
		r.skipSpace()
		if r.pos >= len(r.in) {
			return r.errorf("unexpected end of input in array")
		}
		switch r.in[r.pos] {
		case ']':
			r.pos++
			r.out = append(r.out, ']')
			return nil
		case ',':
			r.pos++
		default:
			return r.errorf("want ',' or ']' in array")
		}
	}
}

// str checks the string at the reader and copies it to out as it is
// written. With decode, it appends the string's value to keyBytes.
func (r *shapeReader) str(decode bool) error {
	start := r.pos
	r.pos++ // opening quote
	// Fast path: printable ASCII without escapes is its own value.
	for i := r.pos; i < len(r.in); i++ {
		c := r.in[i]
		if c == '"' {
			r.pos = i + 1
			r.out = append(r.out, r.in[start:r.pos]...)
			if decode {
				r.keyBytes = append(r.keyBytes, r.in[start+1:i]...)
			}
			return nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	b := r.keyBytes
	keep := len(b)
	for {
		if r.pos >= len(r.in) {
			return r.errorf("unterminated string")
		}
		c := r.in[r.pos]
		switch {
		case c == '"':
			r.pos++
			r.out = append(r.out, r.in[start:r.pos]...)
			if !decode {
				b = b[:keep]
			}
			r.keyBytes = b
			return nil
		case c == '\\':
			var err error
			if b, err = r.escape(b); err != nil {
				return err
			}
		case c < 0x20:
			return r.errorf("control character %q in string", c)
		case c < utf8.RuneSelf:
			b = append(b, c)
			r.pos++
		default:
			cr, size := utf8.DecodeRune(r.in[r.pos:])
			if cr == utf8.RuneError && size <= 1 {
				return r.errorf("invalid UTF-8 in string")
			}
			b = append(b, r.in[r.pos:r.pos+size]...)
			r.pos += size
		}
	}
}

// escape decodes the escape at the reader onto b.
func (r *shapeReader) escape(b []byte) ([]byte, error) {
	if r.pos+1 >= len(r.in) {
		return b, r.errorf("unterminated escape")
	}
	switch e := r.in[r.pos+1]; e {
	case '"', '\\', '/':
		r.pos += 2
		return append(b, e), nil
	case 'b', 'f', 'n', 'r', 't':
		r.pos += 2
		return append(b, "\b\f\n\r\t"[strings.IndexByte("bfnrt", e)]), nil
	case 'u':
	default:
		return b, r.errorf("invalid escape \\%c", e)
	}
	u, err := r.hex4(r.pos + 2)
	if err != nil {
		return b, err
	}
	r.pos += 6
	if utf16.IsSurrogate(u) {
		if u >= 0xDC00 || r.pos+1 >= len(r.in) || r.in[r.pos] != '\\' || r.in[r.pos+1] != 'u' {
			return b, r.errorf("unpaired surrogate escape %U", u)
		}
		low, err := r.hex4(r.pos + 2)
		if err != nil {
			return b, err
		}
		if u = utf16.DecodeRune(u, low); u == utf8.RuneError {
			return b, r.errorf("unpaired surrogate escape")
		}
		r.pos += 6
	}
	return utf8.AppendRune(b, u), nil
}

func (r *shapeReader) hex4(at int) (rune, error) {
	if at+4 > len(r.in) {
		return 0, r.errorf("short \\u escape")
	}
	var v rune
	for _, c := range r.in[at : at+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, r.errorf("invalid \\u escape %q", r.in[at:at+4])
		}
		v = v<<4 | rune(c)
	}
	return v, nil
}

// number checks the number at the reader as tools.Canonicalize does: JSON's
// grammar, and a non-zero value's decimal exponent within ±1e9.
func (r *shapeReader) number() error {
	start, i := r.pos, r.pos
	if r.in[i] == '-' {
		i++
	}
	intStart := i
	switch {
	case i < len(r.in) && r.in[i] == '0':
		i++
	case i < len(r.in) && '1' <= r.in[i] && r.in[i] <= '9':
		i = digitsEnd(r.in, i)
	default:
		r.pos = i
		return r.errorf("invalid number")
	}
	intEnd, fracStart, fracEnd := i, i, i
	if i < len(r.in) && r.in[i] == '.' {
		fracStart = i + 1
		if fracEnd = digitsEnd(r.in, fracStart); fracEnd == fracStart {
			r.pos = fracEnd
			return r.errorf("number has no digits after '.'")
		}
		i = fracEnd
	}
	exp := int64(0)
	if i < len(r.in) && (r.in[i] == 'e' || r.in[i] == 'E') {
		i++
		neg := false
		if i < len(r.in) && (r.in[i] == '+' || r.in[i] == '-') {
			neg = r.in[i] == '-'
			i++
		}
		ds := i
		if i = digitsEnd(r.in, i); i == ds {
			r.pos = i
			return r.errorf("number has no digits in its exponent")
		}
		for ds < i && r.in[ds] == '0' {
			ds++
		}
		if i-ds > 10 {
			r.pos = start
			return r.errorf("number exponent out of range")
		}
		for _, d := range r.in[ds:i] {
			exp = 10*exp + int64(d-'0')
		}
		if neg {
			exp = -exp
		}
	}
	r.pos = i
	// The value is 0.D × 10^n, D the significant digits.
	n := int64(intEnd-intStart) + exp
	first := -1 // the position of the first non-zero digit among the integer and fraction digits
	for k := intStart; k < intEnd; k++ {
		if r.in[k] != '0' {
			first = k - intStart
			break
		}
	}
	if first < 0 {
		for k := fracStart; k < fracEnd; k++ {
			if r.in[k] != '0' {
				first = intEnd - intStart + k - fracStart
				break
			}
		}
	}
	if first >= 0 {
		if n -= int64(first); n > maxShapeExponent || n < -maxShapeExponent {
			r.pos = start
			return r.errorf("number exponent out of range")
		}
	}
	r.out = append(r.out, r.in[start:i]...)
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

// digitsEnd returns the position of the first byte at or after i that is
// not a decimal digit.
func digitsEnd(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

func (r *shapeReader) skipSpace() {
	for r.pos < len(r.in) {
		switch r.in[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *shapeReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", tools.ErrInvalidJSON, r.pos, fmt.Sprintf(format, args...))
}
