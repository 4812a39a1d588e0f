package tools

import (
	"errors"
	"strings"
	"testing"
)

// TestCompileSchemaCounts: a count keyword larger than 2^53-1 is refused
// with its JSON Pointer wherever it is, and one that fits keeps its value
// (no wrap): the largest count still refuses short values.
func TestCompileSchemaCounts(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		want   string // "" when the schema compiles
	}{
		{"minLength 2^64+1", `{"minLength":18446744073709551617}`, "/minLength: 18446744073709551617 is too large"},
		{"minLength 1e20", `{"minLength":1e20}`, "/minLength: 1e20 is too large"},
		{"maxLength", `{"maxLength":18446744073709551616}`, "/maxLength: 18446744073709551616 is too large"},
		{"minItems", `{"minItems":1E+19}`, "/minItems: 1E+19 is too large"},
		{"maxItems", `{"maxItems":99999999999999999999999}`, "/maxItems: 99999999999999999999999 is too large"},
		{"minProperties", `{"minProperties":1e300}`, "/minProperties: 1e300 is too large"},
		{"maxProperties", `{"maxProperties":18446744073709551617.0}`, "/maxProperties: 18446744073709551617.0 is too large"},
		{"minContains", `{"contains":{},"minContains":1e20}`, "/minContains: 1e20 is too large"},
		{"maxContains", `{"contains":{},"maxContains":1e20}`, "/maxContains: 1e20 is too large"},
		{"just above", `{"minLength":9007199254740992}`, "/minLength: 9007199254740992 is too large"},
		{"property", `{"type":"object","properties":{"a/b":{"type":"string","minLength":1e20}}}`, "/properties/a~1b/minLength: 1e20 is too large"},
		{"property named like a keyword", `{"properties":{"minLength":{"maxLength":1e20}}}`, "/properties/minLength/maxLength: 1e20 is too large"},
		{"items", `{"type":"array","items":{"type":"array","minItems":1e20}}`, "/items/minItems: 1e20 is too large"},
		{"prefixItems", `{"prefixItems":[{},{"minLength":1e20}]}`, "/prefixItems/1/minLength: 1e20 is too large"},
		{"anyOf", `{"anyOf":[{"maxLength":1e20}]}`, "/anyOf/0/maxLength: 1e20 is too large"},
		{"unused $defs", `{"$defs":{"a":{"minLength":1e20}}}`, "/$defs/a/minLength: 1e20 is too large"},
		{"$ref to an unknown keyword", `{"$ref":"#/x-shapes/a","x-shapes":{"a":{"minItems":1e20}}}`, "/x-shapes/a/minItems: 1e20 is too large"},
		{"draft-07 items list", `{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"minLength":1e20}]}`, "/items/0/minLength: 1e20 is too large"},
		{"every one listed in order", `{"properties":{"b":{"minLength":1e20},"a":{"maxItems":1e21}}}`, "/properties/a/maxItems: 1e21 is too large; /properties/b/minLength: 1e20 is too large"},
		{"largest count", `{"minLength":9007199254740991,"maxItems":9007199254740991}`, ""},
		{"large in data", `{"const":{"minLength":1e20},"enum":[{"maxLength":1e20}],"default":{"minItems":1e20},"examples":[{"minItems":1e20}]}`, ""},
		{"integral float", `{"minLength":2.0}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := CompileSchema([]byte(tc.schema))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CompileSchema: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CompileSchema = %v, %v; want ErrInvalidSchema containing %q", s, err, tc.want)
			}
		})
	}
}

// TestCompileSchemaLargestCount: the largest count is kept as it is.
func TestCompileSchemaLargestCount(t *testing.T) {
	s, err := CompileSchema([]byte(`{"minLength":9007199254740991}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate([]byte(`"ab"`)); !errors.Is(err, ErrPayloadInvalid) {
		t.Fatalf("Validate(\"ab\") = %v, want the minLength violation", err)
	}
}
