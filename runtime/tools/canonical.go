package tools

// Canonical JSON, the input of every fingerprint.
//
// The canonical form of a JSON document is defined as follows:
//   - no whitespace outside strings;
//   - object members sorted by key, comparing the keys' UTF-8 bytes;
//     duplicate keys are an error;
//   - strings written with the shortest escapes: '"' and '\\' escaped with a
//     backslash, \b \f \n \r \t for those controls, \u00XX (lower-case hex)
//     for the other controls, every other character written as UTF-8;
//     invalid UTF-8 and unpaired surrogate escapes are an error;
//   - numbers written from their exact decimal value, never through floating
//     point: with digits D (no leading or trailing zeros) and n the position
//     of the decimal point relative to the start of D, the number is written
//     plainly when -6 < n <= 21 ("100", "1.5", "0.000125") and otherwise as
//     d[.ddd]e±x ("1e+21", "1.5e-7"); zero is "0" and negative zero is "0";
//     exponents beyond ±1e9 are an error;
//   - true, false and null as themselves; arrays keep their order.
//
// Two documents with the same canonical form are equal JSON values, so 1,
// 1.0 and 10e-1 have one canonical form, and so do documents that differ only
// in member order or whitespace.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrInvalidJSON is matched by every error about malformed JSON input.
var ErrInvalidJSON = errors.New("invalid JSON")

const (
	maxCanonicalDepth    = 1000
	maxCanonicalExponent = 1_000_000_000
)

// Canonicalize returns the canonical form of the JSON document data.
func Canonicalize(data []byte) ([]byte, error) {
	p := canonParser{in: data}
	var out bytes.Buffer
	out.Grow(len(data))
	p.skipSpace()
	if err := p.value(&out, 0); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.in) {
		return nil, p.errorf("unexpected data after the top-level value")
	}
	return out.Bytes(), nil
}

type canonParser struct {
	in  []byte
	pos int
}

func (p *canonParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrInvalidJSON, p.pos, fmt.Sprintf(format, args...))
}

func (p *canonParser) skipSpace() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *canonParser) value(out *bytes.Buffer, depth int) error {
	if depth > maxCanonicalDepth {
		return p.errorf("nesting deeper than %d", maxCanonicalDepth)
	}
	if p.pos >= len(p.in) {
		return p.errorf("unexpected end of input")
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return p.object(out, depth)
	case c == '[':
		return p.array(out, depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return err
		}
		writeCanonicalString(out, s)
		return nil
	case c == '-' || '0' <= c && c <= '9':
		return p.number(out)
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.in[p.pos:], []byte(lit)) {
				p.pos += len(lit)
				out.WriteString(lit)
				return nil
			}
		}
		return p.errorf("unexpected character %q", c)
	}
}

// canonMember is an object member whose canonical value was written at
// out[start:end] while parsing, before the members were sorted.
type canonMember struct {
	key        string
	start, end int
}

func (p *canonParser) object(out *bytes.Buffer, depth int) error {
	p.pos++ // '{'
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		out.WriteString("{}")
		return nil
	}
	region := out.Len()
	var members []canonMember
	for {
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return p.errorf("want an object key")
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return p.errorf("want ':' after object key")
		}
		p.pos++
		p.skipSpace()
		start := out.Len()
		if err := p.value(out, depth+1); err != nil {
			return err
		}
		members = append(members, canonMember{key: key, start: start - region, end: out.Len() - region})
		p.skipSpace()
		if p.pos >= len(p.in) {
			return p.errorf("unexpected end of input in object")
		}
		if p.in[p.pos] == '}' {
			p.pos++
			break
		}
		if p.in[p.pos] != ',' {
			return p.errorf("want ',' or '}' in object")
		}
		p.pos++
	}
	slices.SortFunc(members, func(a, b canonMember) int { return strings.Compare(a.key, b.key) })
	values := bytes.Clone(out.Bytes()[region:])
	out.Truncate(region)
	out.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			if members[i-1].key == m.key {
				return fmt.Errorf("%w: duplicate object key %q", ErrInvalidJSON, m.key)
			}
			out.WriteByte(',')
		}
		writeCanonicalString(out, m.key)
		out.WriteByte(':')
		out.Write(values[m.start:m.end])
	}
	out.WriteByte('}')
	return nil
}

func (p *canonParser) array(out *bytes.Buffer, depth int) error {
	p.pos++ // '['
	out.WriteByte('[')
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		out.WriteByte(']')
		return nil
	}
	for first := true; ; first = false {
		if !first {
			out.WriteByte(',')
		}
		p.skipSpace()
		if err := p.value(out, depth+1); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.in) {
			return p.errorf("unexpected end of input in array")
		}
		if p.in[p.pos] == ']' {
			p.pos++
			out.WriteByte(']')
			return nil
		}
		if p.in[p.pos] != ',' {
			return p.errorf("want ',' or ']' in array")
		}
		p.pos++
	}
}

// str parses a JSON string starting at the opening quote and returns its
// decoded value.
func (p *canonParser) str() (string, error) {
	p.pos++ // opening quote
	// Fast path: printable ASCII without escapes is its own value.
	for i := p.pos; i < len(p.in); i++ {
		c := p.in[i]
		if c == '"' {
			s := string(p.in[p.pos:i])
			p.pos = i + 1
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	var sb strings.Builder
	for {
		if p.pos >= len(p.in) {
			return "", p.errorf("unterminated string")
		}
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return sb.String(), nil
		case c == '\\':
			if err := p.escape(&sb); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errorf("control character %q in string", c)
		case c < utf8.RuneSelf:
			sb.WriteByte(c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.in[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.errorf("invalid UTF-8 in string")
			}
			sb.Write(p.in[p.pos : p.pos+size])
			p.pos += size
		}
	}
}

func (p *canonParser) escape(sb *strings.Builder) error {
	if p.pos+1 >= len(p.in) {
		return p.errorf("unterminated escape")
	}
	e := p.in[p.pos+1]
	if r, ok := simpleEscape(e); ok {
		sb.WriteByte(r)
		p.pos += 2
		return nil
	}
	if e != 'u' {
		return p.errorf("invalid escape \\%c", e)
	}
	r, err := p.hex4(p.pos + 2)
	if err != nil {
		return err
	}
	p.pos += 6
	if utf16.IsSurrogate(r) {
		if r >= 0xDC00 || p.pos+1 >= len(p.in) || p.in[p.pos] != '\\' || p.in[p.pos+1] != 'u' {
			return p.errorf("unpaired surrogate escape %U", r)
		}
		low, err := p.hex4(p.pos + 2)
		if err != nil {
			return err
		}
		combined := utf16.DecodeRune(r, low)
		if combined == utf8.RuneError {
			return p.errorf("unpaired surrogate escape %U", r)
		}
		p.pos += 6
		r = combined
	}
	sb.WriteRune(r)
	return nil
}

func simpleEscape(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

func (p *canonParser) hex4(at int) (rune, error) {
	if at+4 > len(p.in) {
		return 0, p.errorf("short \\u escape")
	}
	v, err := strconv.ParseUint(string(p.in[at:at+4]), 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape %q", p.in[at:at+4])
	}
	return rune(v), nil
}

func writeCanonicalString(out *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	out.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			out.WriteByte('\\')
			out.WriteByte(c)
		case '\b':
			out.WriteString(`\b`)
		case '\f':
			out.WriteString(`\f`)
		case '\n':
			out.WriteString(`\n`)
		case '\r':
			out.WriteString(`\r`)
		case '\t':
			out.WriteString(`\t`)
		default:
			if c < 0x20 {
				out.WriteString(`\u00`)
				out.WriteByte(hex[c>>4])
				out.WriteByte(hex[c&0xF])
				continue
			}
			out.WriteByte(c)
		}
	}
	out.WriteByte('"')
}
