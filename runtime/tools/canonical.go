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
	"fmt"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
)

// ErrInvalidJSON is matched by every error about malformed JSON input.
var ErrInvalidJSON = jsonscan.ErrInvalid

// Canonicalize returns the canonical form of the JSON document data. It
// reads data with the runtime's JSON scanner, whose limits it has: at most
// jsonscan.MaxDepth (1,000) arrays and objects open at once, and a
// non-zero number's decimal exponent within ±1e9.
func Canonicalize(data []byte) ([]byte, error) {
	var p canonParser
	p.s.Reset(data, false)
	var out bytes.Buffer
	out.Grow(len(data))
	p.s.SkipSpace()
	if err := p.value(&out); err != nil {
		return nil, err
	}
	p.s.SkipSpace()
	if !p.s.AtEnd() {
		return nil, p.s.Errorf("unexpected data after the top-level value")
	}
	return out.Bytes(), nil
}

type canonParser struct {
	s jsonscan.Scanner[[]byte]
}

func (p *canonParser) value(out *bytes.Buffer) error {
	switch c := p.s.Peek(); {
	case p.s.AtEnd():
		return p.s.Errorf("unexpected end of input")
	case c == '{':
		return p.object(out)
	case c == '[':
		return p.array(out)
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
		start := p.s.Pos()
		if err := p.s.Literal(); err != nil {
			return err
		}
		out.Write(p.s.Input()[start:p.s.Pos()])
		return nil
	}
}

// canonMember is an object member whose canonical value was written at
// out[start:end] while parsing, before the members were sorted.
type canonMember struct {
	key        string
	start, end int
}

func (p *canonParser) object(out *bytes.Buffer) error {
	if err := p.s.Enter(); err != nil {
		return err
	}
	p.s.Next() // '{'
	p.s.SkipSpace()
	if p.s.Peek() == '}' {
		p.s.Next()
		p.s.Leave()
		out.WriteString("{}")
		return nil
	}
	region := out.Len()
	var members []canonMember
	for {
		p.s.SkipSpace()
		if p.s.Peek() != '"' {
			return p.s.Errorf("want an object key")
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		p.s.SkipSpace()
		if p.s.Peek() != ':' {
			return p.s.Errorf("want ':' after object key")
		}
		p.s.Next()
		p.s.SkipSpace()
		start := out.Len()
		if err := p.value(out); err != nil {
			return err
		}
		members = append(members, canonMember{key: key, start: start - region, end: out.Len() - region})
		p.s.SkipSpace()
		if p.s.AtEnd() {
			return p.s.Errorf("unexpected end of input in object")
		}
		if p.s.Peek() == '}' {
			p.s.Next()
			p.s.Leave()
			break
		}
		if p.s.Peek() != ',' {
			return p.s.Errorf("want ',' or '}' in object")
		}
		p.s.Next()
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

func (p *canonParser) array(out *bytes.Buffer) error {
	if err := p.s.Enter(); err != nil {
		return err
	}
	p.s.Next() // '['
	out.WriteByte('[')
	p.s.SkipSpace()
	if p.s.Peek() == ']' {
		p.s.Next()
		p.s.Leave()
		out.WriteByte(']')
		return nil
	}
	for first := true; ; first = false {
		if !first {
			out.WriteByte(',')
		}
		p.s.SkipSpace()
		if err := p.value(out); err != nil {
			return err
		}
		p.s.SkipSpace()
		if p.s.AtEnd() {
			return p.s.Errorf("unexpected end of input in array")
		}
		if p.s.Peek() == ']' {
			p.s.Next()
			p.s.Leave()
			out.WriteByte(']')
			return nil
		}
		if p.s.Peek() != ',' {
			return p.s.Errorf("want ',' or ']' in array")
		}
		p.s.Next()
	}
}

// str reads the string at the scanner and returns its decoded value.
func (p *canonParser) str() (string, error) {
	start := p.s.Pos()
	plain, err := p.s.String()
	if err != nil {
		return "", err
	}
	token := p.s.Input()[start:p.s.Pos()]
	if plain {
		return string(token[1 : len(token)-1]), nil
	}
	var buf [128]byte // most values fit: one allocation, the string's
	return string(jsonscan.AppendString(buf[:0], token)), nil
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
