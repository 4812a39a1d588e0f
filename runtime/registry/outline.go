package registry

// Publish outlines. Decoding a publish request costs far more than reading
// it: the strict decoder reads each schema several times and validation
// canonicalizes it, so a 4 MB body of deeply nested schemas cost seconds of
// CPU before the schema limits refused it, and as much again before a
// principal allowed to publish one toolset was refused another. A registry
// therefore outlines a publish body first, in one pass over its bytes that
// decodes nothing but keys and the toolset's name: it authorizes the
// toolset the body names and measures every schema against its
// SchemaLimits, and only a body that passes both is decoded.
//
// The outline reads the body's tokens with the runtime's JSON scanner
// (runtime/internal/jsonscan), a lenient one (an unpaired surrogate escape
// is U+FFFD, as the strict decoder reads it), and passes over every value
// it does not read with the scanner's Skip, which follows nesting of any
// depth without recursion. A body that is not JSON is left to the strict
// decoder, which says precisely what is wrong with it.
//
// The outline only refuses early; it never admits. A body it reads as
// naming one toolset and the strict decoder as naming another (a duplicate
// key, say) is refused by the decoder, and the decoded request is
// authorized and measured again.

import (
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/internal/jsonscan"
)

// PublishOutline is what a publish body names and whether its schemas are
// within a registry's limits, read without decoding the body.
type PublishOutline struct {
	// Toolset is the name the body gives its toolset ("" when it gives
	// none).
	Toolset string
	// Limit is the first schema over a limit: an *Error with
	// CodeSchemaLimit worded as SchemaLimits.Check words it; nil when
	// every schema is within the limits.
	Limit error
}

// errOutline marks a body the outline cannot read: it is left to the
// strict decoder, which says precisely what is wrong.
var errOutline = errors.New("publish body is not JSON the outline can read")

// OutlinePublish reads the toolset's name from a publish request body and
// measures its tools' payload and result schemas against the limits, in
// one pass over the bytes and without decoding them. It returns an error
// only when the body is not one JSON object (its grammar is checked
// whole, at any depth); the strict decoder then refuses it and says why.
func OutlinePublish(data []byte, limits SchemaLimits) (*PublishOutline, error) {
	o := &outliner{limits: limits}
	o.s.Reset(data, true)
	o.s.SkipSpace()
	if o.s.Peek() != '{' {
		return nil, o.fail("want an object")
	}
	err := o.object(func(key []byte) error {
		if string(key) == "toolset" && o.s.Peek() == '{' {
			return o.toolset()
		}
		return o.skip()
	})
	if err != nil {
		return nil, err
	}
	if o.s.SkipSpace(); !o.s.AtEnd() {
		return nil, o.fail("data after the object")
	}
	out := &PublishOutline{Toolset: o.name}
	if o.over != nil {
		out.Limit = o.over(o.name)
	}
	return out, nil
}

// outliner reads one publish body.
type outliner struct {
	s      jsonscan.Scanner[[]byte]
	limits SchemaLimits
	name   string
	work   int
	// over words the first limit passed, once the toolset's name is
	// known (it may follow the tools).
	over func(toolset string) error
	// buf holds the value of the last string read with escapes.
	buf []byte
}

// toolset reads the toolset object at the scanner.
func (o *outliner) toolset() error {
	return o.object(func(key []byte) error {
		switch {
		case string(key) == "name" && o.s.Peek() == '"':
			name, err := o.str()
			o.name = string(name)
			return err
		case string(key) == "tools" && o.s.Peek() == '[':
			return o.array(o.tool)
		}
		return o.skip()
	})
}

// tool reads the tool at the scanner and measures its schemas, payload
// then result, as SchemaLimits.Check does.
func (o *outliner) tool() error {
	if o.s.Peek() != '{' {
		return o.skip()
	}
	var name string
	var payload, result []byte
	err := o.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "name":
			if o.s.Peek() == '"' {
				var n []byte
				n, err = o.str()
				name = string(n)
				return err
			}
		case "payload":
			payload, err = o.value()
			return err
		case "result":
			result, err = o.value()
			return err
		}
		return o.skip()
	})
	if err != nil || o.over != nil {
		return err
	}
	o.work++
	for _, s := range []struct {
		which string
		raw   []byte
	}{{"payload", payload}, {"result", result}} {
		if len(s.raw) == 0 {
			continue
		}
		if over := o.limits.checkSchema(name, s.which, s.raw, &o.work); over != nil {
			o.over = over
			break
		}
	}
	return nil
}

// object reads the object at the scanner, calling member with each key
// (valid until the next string is read) and the scanner at the key's
// value; member moves past the value.
func (o *outliner) object(member func(key []byte) error) error {
	s := &o.s
	s.Next() // '{'
	s.SkipSpace()
	if s.Peek() == '}' {
		s.Next()
		return nil
	}
	for {
		if s.Peek() != '"' {
			return o.fail("want an object key")
		}
		key, err := o.str()
		if err != nil {
			return err
		}
		if s.SkipSpace(); s.Peek() != ':' {
			return o.fail("want ':' after object key")
		}
		s.Next()
		s.SkipSpace()
		if err := member(key); err != nil {
			return err
		}
		s.SkipSpace()
		switch s.Peek() {
		case ',':
			s.Next()
			s.SkipSpace()
		case '}':
			s.Next()
			return nil
		default:
			return o.fail("want ',' or '}' in object")
		}
	}
}

// array reads the array at the scanner, calling elem with the scanner at
// each element; elem moves past it.
func (o *outliner) array(elem func() error) error {
	s := &o.s
	s.Next() // '['
	s.SkipSpace()
	if s.Peek() == ']' {
		s.Next()
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		s.SkipSpace()
		switch s.Peek() {
		case ',':
			s.Next()
			s.SkipSpace()
		case ']':
			s.Next()
			return nil
		default:
			return o.fail("want ',' or ']' in array")
		}
	}
}

// str reads the string at the scanner and returns its value: the bytes
// between its quotes, or its escapes decoded into o.buf.
func (o *outliner) str() ([]byte, error) {
	start := o.s.Pos()
	plain, err := o.s.String()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errOutline, err)
	}
	lit := o.s.Input()[start:o.s.Pos()]
	if plain {
		return lit[1 : len(lit)-1], nil
	}
	o.buf = jsonscan.AppendString(o.buf[:0], lit)
	return o.buf, nil
}

// skip moves past the value at the scanner, however deep it nests.
func (o *outliner) skip() error {
	_, err := o.value()
	return err
}

// value moves past the value at the scanner and returns its text.
func (o *outliner) value() ([]byte, error) {
	start := o.s.Pos()
	if err := o.s.Skip(); err != nil {
		return nil, fmt.Errorf("%w: %w", errOutline, err)
	}
	return o.s.Input()[start:o.s.Pos()], nil
}

// fail is the error of a body whose structure the outline cannot read at
// the scanner.
func (o *outliner) fail(want string) error {
	return fmt.Errorf("%w: %w", errOutline, o.s.Errorf("%s", want))
}
