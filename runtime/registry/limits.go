package registry

// Bounded schema cost. Compiling a JSON Schema costs far more than reading
// it: a chain of nested subschemas compiles in time that grows with the
// cube of its depth (a 9.9 KB schema nested 990 levels deep took seconds and
// gigabytes), and a restarted registry compiles every stored toolset again.
// So before anything is compiled, at publish and when a stored toolset is
// loaded, the registry measures each schema document in one cheap pass and
// refuses the toolset when a measure is over its limit, naming the limit.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Answer sizes. Everything the registry accepts, its Client can read: a
// record that goes into an answer (a registration, a resolved toolset, a
// call result) is refused when its encoding is larger than
// MaxAnswerRecordBytes, and catalogs are answered in pages of at most that
// many bytes of records, so that every answer fits in DefaultMaxBodyBytes,
// the least a Client reads.
const (
	// answerEnvelopeBytes is room for what an answer holds besides its
	// records: the generation, the next page's cursor, a publish status.
	answerEnvelopeBytes = 16 << 10
	// MaxAnswerRecordBytes bounds the JSON encoding of one registration,
	// resolved toolset or call result, and of the records of one catalog
	// page.
	MaxAnswerRecordBytes = DefaultMaxBodyBytes - answerEnvelopeBytes
)

// SchemaLimits bound what compiling a toolset's schemas may cost.
type SchemaLimits struct {
	// MaxDepth bounds the nesting of arrays and objects in one schema
	// document ({} is depth 1).
	MaxDepth int
	// MaxBytes bounds the size of one schema document, in bytes.
	MaxBytes int
	// MaxWork bounds the compile work of one toolset: one unit per tool
	// and per JSON value and object key in its payload and result schemas.
	MaxWork int
}

// DefaultSchemaLimits are the limits of a registry that sets none. Generated
// schemas stay far below them, and the costliest toolset they admit compiles
// in about a second of one core (BenchmarkPublishAtSchemaLimits in
// registry/service; the README gives the figures).
var DefaultSchemaLimits = SchemaLimits{MaxDepth: 32, MaxBytes: 64 << 10, MaxWork: 50_000}

// Validate reports a limit that is not positive.
func (l SchemaLimits) Validate() error {
	if l.MaxDepth <= 0 || l.MaxBytes <= 0 || l.MaxWork <= 0 {
		return fmt.Errorf("schema limits %+v: every limit must be positive", l)
	}
	return nil
}

// Check measures the toolset's schemas against the limits. A toolset over
// one is an *Error with CodeSchemaLimit naming the tool, the schema, the
// measure and the limit; a schema that is not JSON is left to the compiler
// to report. OutlinePublish measures a publish body the same way before
// it is decoded.
func (l SchemaLimits) Check(ts *tools.ToolsetSchema) error {
	work := 0
	for i := range ts.Tools {
		t := &ts.Tools[i]
		work++
		for _, s := range []struct {
			which string
			raw   json.RawMessage
		}{{"payload", t.Payload}, {"result", t.Result}} {
			if len(s.raw) == 0 {
				continue
			}
			if over := l.checkSchema(string(t.Name), s.which, s.raw, &work); over != nil {
				return over(ts.Name)
			}
		}
	}
	return nil
}

// checkSchema measures one schema of a tool, adding its values to work;
// over a limit, it returns the function that words the error once the
// toolset's name is known.
func (l SchemaLimits) checkSchema(tool, which string, raw []byte, work *int) func(toolset string) error {
	if len(raw) > l.MaxBytes {
		return func(toolset string) error {
			return Errorf(CodeSchemaLimit, "toolset %q: tool %q: %s schema is %d bytes, over the limit of %d bytes per schema (MaxBytes)", toolset, tool, which, len(raw), l.MaxBytes)
		}
	}
	values, depth, err := measure(raw, l.MaxDepth, l.MaxWork-*work)
	switch {
	case err != nil:
		return nil // not JSON: the compiler says why
	case depth > l.MaxDepth:
		return func(toolset string) error {
			return Errorf(CodeSchemaLimit, "toolset %q: tool %q: %s schema nests deeper than %d levels, the limit per schema (MaxDepth)", toolset, tool, which, l.MaxDepth)
		}
	}
	*work += values
	if *work > l.MaxWork {
		return func(toolset string) error {
			return Errorf(CodeSchemaLimit, "toolset %q: schemas up to tool %q hold more than %d JSON values, keys and tools, the compile work limit per toolset (MaxWork)", toolset, tool, l.MaxWork)
		}
	}
	return nil
}

// measure counts the JSON values and keys of doc and its nesting depth, stopping as
// soon as the depth passes maxDepth or the count passes maxValues.
func measure(doc []byte, maxDepth, maxValues int) (values, depth int, err error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	level := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return values, depth, nil
		}
		if err != nil {
			return values, depth, err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			values++
			level++
			depth = max(depth, level)
			if depth > maxDepth {
				return values, depth, nil
			}
		case json.Delim('}'), json.Delim(']'):
			level--
		default:
			values++ // a scalar or an object key
		}
		if values > maxValues {
			return values, depth, nil
		}
	}
}
