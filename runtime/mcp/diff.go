package mcp

// The first difference between two JSON documents, compared canonically
// (tools.Canonicalize): member order, whitespace and the spelling of
// numbers never differ. Members are visited in key order, so the first
// difference of two documents is always the same one. schemaDifference
// compares two schemas in their canonical form as schemas (schema.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// difference is where two JSON documents first differ.
type difference struct {
	pointer     string
	left, right string // compact JSON or "absent"
}

// firstDifference returns the first difference of a and b, or nil when they
// are canonically equal.
func firstDifference(a, b []byte) (*difference, error) {
	ca, err := tools.Canonicalize(a)
	if err != nil {
		return nil, err
	}
	cb, err := tools.Canonicalize(b)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(ca, cb) {
		return nil, nil
	}
	va, err := decodeNumbers(ca)
	if err != nil {
		return nil, err
	}
	vb, err := decodeNumbers(cb)
	if err != nil {
		return nil, err
	}
	if d := diffValues("", va, vb); d != nil {
		return d, nil
	}
	return &difference{left: render(va), right: render(vb)}, nil
}

// schemaDifference returns the first difference of a declared schema and
// a server's, both in their canonical form (canonicalSchema), or nil when
// they accept the same values. For an input schema the declared one may
// be stricter in additionalProperties (adoptStricter); in either schema a
// property declared Any matches whatever the server states for it
// (adoptAny). The values of the difference are those of the canonical
// forms.
func schemaDifference(declared, served []byte, input bool) (*difference, error) {
	d, s, err := comparedSchemas(declared, served, input)
	if err != nil {
		return nil, err
	}
	return diffValues("", d, s), nil
}

// schemaDifferences returns every difference of the two schemas in the
// comparison of schemaDifference, the first one first.
func schemaDifferences(declared, served []byte, input bool) ([]difference, error) {
	d, s, err := comparedSchemas(declared, served, input)
	if err != nil {
		return nil, err
	}
	var all []difference
	walkDifferences("", d, s, func(x difference) bool {
		all = append(all, x)
		return true
	})
	return all, nil
}

// comparedSchemas returns the forms of a declared schema and a server's
// that schemaDifference compares.
func comparedSchemas(declared, served []byte, input bool) (any, any, error) {
	var vs [2]any
	for i, b := range [][]byte{declared, served} {
		c, err := tools.Canonicalize(b)
		if err != nil {
			return nil, nil, err
		}
		v, err := decodeNumbers(c)
		if err != nil {
			return nil, nil, err
		}
		vs[i] = canonicalSchema(v)
	}
	if input {
		adoptNarrower(vs[0], vs[1])
		adoptStricter(vs[0], vs[1])
	} else {
		adoptNullResult(vs[0], vs[1])
	}
	adoptAny(vs[0], vs[1])
	return vs[0], vs[1], nil
}

func decodeNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %w", tools.ErrInvalidJSON, err)
	}
	return v, nil
}

// diffValues returns the first difference of two values decoded from
// canonical JSON, in which equal numbers are spelled alike, or nil.
func diffValues(at string, a, b any) *difference {
	var first *difference
	walkDifferences(at, a, b, func(d difference) bool {
		first = &d
		return false
	})
	return first
}

// walkDifferences calls emit with each difference of a and b in key
// order, the first one first, until emit returns false; it returns false
// when emit stopped the walk. A difference is reported where it starts: a
// member one side lacks, or the values of two different kinds, and
// nothing below.
func walkDifferences(at string, a, b any, emit func(difference) bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range x {
				if !yield(k) {
					return
				}
			}
			for k := range y {
				if _, dup := x[k]; !dup && !yield(k) {
					return
				}
			}
		})
		for _, k := range keys {
			p := at + "/" + escapePointer(k)
			xv, inX := x[k]
			yv, inY := y[k]
			var more bool
			switch {
			case !inX:
				more = emit(difference{pointer: p, left: "absent", right: render(yv)})
			case !inY:
				more = emit(difference{pointer: p, left: render(xv), right: "absent"})
			default:
				more = walkDifferences(p, xv, yv, emit)
			}
			if !more {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range max(len(x), len(y)) {
			p := at + "/" + strconv.Itoa(i)
			var more bool
			switch {
			case i >= len(x):
				more = emit(difference{pointer: p, left: "absent", right: render(y[i])})
			case i >= len(y):
				more = emit(difference{pointer: p, left: render(x[i]), right: "absent"})
			default:
				more = walkDifferences(p, x[i], y[i], emit)
			}
			if !more {
				return false
			}
		}
		return true
	default:
		if render(a) == render(b) {
			return true
		}
	}
	return emit(difference{pointer: at, left: render(a), right: render(b)})
}

// render writes a value as compact JSON, clipped for an error message.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	const most = 120
	if len(b) > most {
		return string(b[:most]) + "..."
	}
	return string(b)
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
