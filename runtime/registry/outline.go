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
// The outline only refuses early; it never admits. A body it reads as
// naming one toolset and the strict decoder as naming another (a duplicate
// key, say) is refused by the decoder, and the decoded request is
// authorized and measured again.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
// only when the body is not well-formed enough to outline; the strict
// decoder then refuses it.
func OutlinePublish(data []byte, limits SchemaLimits) (*PublishOutline, error) {
	o := &outliner{data: data, limits: limits}
	i := o.space(0)
	if i >= len(data) || data[i] != '{' {
		return nil, errOutline
	}
	end, err := o.object(i, func(key string, at int) (int, error) {
		if key == "toolset" && data[at] == '{' {
			return o.toolset(at)
		}
		return o.skip(at)
	})
	if err != nil {
		return nil, err
	}
	if o.space(end) != len(data) {
		return nil, errOutline
	}
	out := &PublishOutline{Toolset: o.name}
	if o.over != nil {
		out.Limit = o.over(o.name)
	}
	return out, nil
}

// outliner reads one publish body.
type outliner struct {
	data   []byte
	limits SchemaLimits
	name   string
	work   int
	// over words the first limit passed, once the toolset's name is
	// known (it may follow the tools).
	over func(toolset string) error
}

// toolset reads the toolset object at i.
func (o *outliner) toolset(i int) (int, error) {
	return o.object(i, func(key string, at int) (int, error) {
		switch {
		case key == "name" && o.data[at] == '"':
			end, err := o.str(at)
			if err != nil {
				return 0, err
			}
			o.name, err = unquote(o.data[at:end])
			return end, err
		case key == "tools" && o.data[at] == '[':
			return o.array(at, o.tool)
		}
		return o.skip(at)
	})
}

// tool reads the tool at i and measures its schemas, payload then
// result, as SchemaLimits.Check does.
func (o *outliner) tool(i int) (int, error) {
	if o.data[i] != '{' {
		return o.skip(i)
	}
	var name string
	var payload, result []byte
	end, err := o.object(i, func(key string, at int) (int, error) {
		end, err := o.skip(at)
		if err != nil {
			return 0, err
		}
		switch key {
		case "name":
			if o.data[at] == '"' {
				name, err = unquote(o.data[at:end])
			}
		case "payload":
			payload = o.data[at:end]
		case "result":
			result = o.data[at:end]
		}
		return end, err
	})
	if err != nil || o.over != nil {
		return end, err
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
	return end, nil
}

// object reads the object at i, calling member with each key and the
// index of its value; member returns the index after the value.
func (o *outliner) object(i int, member func(key string, at int) (int, error)) (int, error) {
	i = o.space(i + 1)
	if i < len(o.data) && o.data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(o.data) || o.data[i] != '"' {
			return 0, errOutline
		}
		end, err := o.str(i)
		if err != nil {
			return 0, err
		}
		key, err := unquote(o.data[i:end])
		if err != nil {
			return 0, err
		}
		i = o.space(end)
		if i >= len(o.data) || o.data[i] != ':' {
			return 0, errOutline
		}
		i = o.space(i + 1)
		if i >= len(o.data) {
			return 0, errOutline
		}
		if i, err = member(key, i); err != nil {
			return 0, err
		}
		i = o.space(i)
		if i >= len(o.data) {
			return 0, errOutline
		}
		switch o.data[i] {
		case ',':
			i = o.space(i + 1)
		case '}':
			return i + 1, nil
		default:
			return 0, errOutline
		}
	}
}

// array reads the array at i, calling elem with the index of each element;
// elem returns the index after it.
func (o *outliner) array(i int, elem func(at int) (int, error)) (int, error) {
	i = o.space(i + 1)
	if i < len(o.data) && o.data[i] == ']' {
		return i + 1, nil
	}
	for {
		if i >= len(o.data) {
			return 0, errOutline
		}
		var err error
		if i, err = elem(i); err != nil {
			return 0, err
		}
		i = o.space(i)
		if i >= len(o.data) {
			return 0, errOutline
		}
		switch o.data[i] {
		case ',':
			i = o.space(i + 1)
		case ']':
			return i + 1, nil
		default:
			return 0, errOutline
		}
	}
}

// skip returns the index after the value at i, matching brackets and
// reading strings, without recursion (a value may nest as deep as the body
// is long); its syntax is the strict decoder's to check.
func (o *outliner) skip(i int) (int, error) {
	switch o.data[i] {
	case '"':
		return o.str(i)
	case '{', '[':
	default: // a number or a literal
		for i < len(o.data) && !strings.ContainsRune(",]} \t\r\n", rune(o.data[i])) {
			i++
		}
		return i, nil
	}
	depth := 0
	for i < len(o.data) {
		switch o.data[i] {
		case '"':
			end, err := o.str(i)
			if err != nil {
				return 0, err
			}
			i = end
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, nil
			}
		}
		i++
	}
	return 0, errOutline
}

// str returns the index after the string that starts at data[i].
func (o *outliner) str(i int) (int, error) {
	for i++; i < len(o.data); i++ {
		switch o.data[i] {
		case '"':
			return i + 1, nil
		case '\\':
			i++
		}
	}
	return 0, errOutline
}

func (o *outliner) space(i int) int {
	for i < len(o.data) {
		switch o.data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// unquote returns the string a JSON string literal holds.
func unquote(lit []byte) (string, error) {
	for _, c := range lit[1 : len(lit)-1] {
		if c == '\\' || c < ' ' {
			var s string
			if err := json.Unmarshal(lit, &s); err != nil {
				return "", fmt.Errorf("%w: %w", errOutline, err)
			}
			return s, nil
		}
	}
	return string(lit[1 : len(lit)-1]), nil
}
