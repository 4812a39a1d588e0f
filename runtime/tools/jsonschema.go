package tools

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ErrPayloadInvalid is matched by every error that rejects a JSON value
// because it is malformed or violates its schema.
var ErrPayloadInvalid = errors.New("invalid payload")

// SchemaDialect is the $schema of JSON Schema draft 2020-12: the dialect
// of every schema gen writes, and the one CompileSchema assumes when a
// schema names none.
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// schemaURL is the in-memory location each schema is compiled under.
const schemaURL = "mem:///schema.json"

// Schema is a compiled JSON Schema (draft 2020-12 unless the schema says
// otherwise). It is safe for concurrent use; compile once and reuse.
type Schema struct {
	raw      []byte
	compiled *jsonschema.Schema
}

// CompileSchema compiles a JSON Schema document. References to other
// documents are refused: a tool schema must be self-contained. The "format"
// keyword is asserted (date, date-time, email, uri, uuid, ipv4, ...), so a
// value that does not match its format is invalid; unknown formats are
// ignored. A count keyword (minLength, maxItems, ...) larger than 2^53-1
// is refused with its JSON Pointer: the validator would wrap it.
func CompileSchema(raw []byte) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: schema: %w", ErrInvalidJSON, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// A design's format is part of its contract: "format" is asserted, not
	// only annotated as draft 2020-12 would default to.
	c.AssertFormat()
	c.UseLoader(jsonschema.SchemeURLLoader{}) // no file or network access
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	if err := checkCounts(doc, compiled); err != nil {
		return nil, err
	}
	return &Schema{raw: bytes.Clone(raw), compiled: compiled}, nil
}

// MustCompileSchema is CompileSchema for schemas known valid when the program
// is built, such as those generated code embeds; it panics on an error.
func MustCompileSchema(raw []byte) *Schema {
	s, err := CompileSchema(raw)
	if err != nil {
		panic(fmt.Sprintf("tools.MustCompileSchema: %v", err))
	}
	return s
}

// Raw returns the schema document as it was given.
func (s *Schema) Raw() []byte { return bytes.Clone(s.raw) }

// Validate checks the JSON document data against the schema. A malformed
// document is an error matching ErrInvalidJSON; a document that violates the
// schema is a *ValidationError. Both match ErrPayloadInvalid.
//
// Duplicate object keys are rejected: parsers disagree on which one wins, so
// a document that passed validation could mean something else to the code
// that executes it.
func (s *Schema) Validate(data []byte) error {
	_, err := s.validate(data)
	return err
}

// validate is Validate that also returns the decoded document.
func (s *Schema) validate(data []byte) (any, error) {
	if _, err := Canonicalize(data); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPayloadInvalid, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %w: %w", ErrPayloadInvalid, ErrInvalidJSON, err)
	}
	if err := s.validateValue(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

func (s *Schema) validateValue(doc any) error {
	err := s.compiled.Validate(doc)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return fmt.Errorf("%w: %w", ErrPayloadInvalid, err)
	}
	violations := flatten(verr, nil)
	slices.SortStableFunc(violations, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Location, b.Location), strings.Compare(a.Keyword, b.Keyword), strings.Compare(a.Message, b.Message))
	})
	return &ValidationError{Violations: violations}
}

// ValidationError lists every way a JSON value violates its schema.
type ValidationError struct {
	// Violations are the individual failures, sorted by location, keyword
	// and message so that the same value always yields the same error.
	Violations []Violation
}

// Violation is one schema failure.
type Violation struct {
	// Location is the JSON Pointer of the failing value ("" for the root).
	Location string
	// Keyword is the schema keyword that failed ("required", "type", ...).
	Keyword string
	// Message explains the failure.
	Message string
}

// Error lists the violations, one per line after the first.
func (e *ValidationError) Error() string {
	var sb strings.Builder
	sb.WriteString("value does not match its schema")
	for _, v := range e.Violations {
		sb.WriteString("\n  at ")
		if v.Location == "" {
			sb.WriteString("(root)")
		} else {
			sb.WriteString(v.Location)
		}
		sb.WriteString(": ")
		sb.WriteString(v.Message)
	}
	return sb.String()
}

// Is makes a *ValidationError match ErrPayloadInvalid.
func (e *ValidationError) Is(target error) bool { return target == ErrPayloadInvalid }

func flatten(e *jsonschema.ValidationError, out []Violation) []Violation {
	return flattenWith(message.NewPrinter(language.English), e, out)
}

func flattenWith(printer *message.Printer, e *jsonschema.ValidationError, out []Violation) []Violation {
	if len(e.Causes) == 0 {
		v := Violation{Location: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)}
		if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
			v.Keyword = kp[len(kp)-1]
		}
		return append(out, v)
	}
	for _, c := range e.Causes {
		out = flattenWith(printer, c, out)
	}
	return out
}

func pointer(tokens []string) string {
	var sb strings.Builder
	r := strings.NewReplacer("~", "~0", "/", "~1")
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(r.Replace(t))
	}
	return sb.String()
}
