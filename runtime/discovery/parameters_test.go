package discovery

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCheckParameters(t *testing.T) {
	cases := []struct {
		name, schema, err string
	}{
		{"object", objectSchema, ""},
		{"empty object", `{"type":"object"}`, ""},
		{"draft 7", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, ""},
		{"local ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`, ""},
		{"missing", ``, "missing"},
		{"blank", `  `, "missing"},
		{"not JSON", `{"type":`, "invalid JSON"},
		{"duplicate key", `{"type":"object","type":"object"}`, "duplicate"},
		{"array", `[]`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"boolean schema", `true`, "not a JSON object"},
		{"no type", `{"properties":{}}`, `no "type"`},
		{"string type", `{"type":"string"}`, `"type" is "string"`},
		{"type list", `{"type":["object","null"]}`, `want "object"`},
		{"bad keyword value", `{"type":"object","properties":3}`, "invalid tool schema"},
		{"external ref", `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`, "invalid tool schema"},
		{"dangling ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, "invalid tool schema"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckParameters(json.RawMessage(tc.schema))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("CheckParameters: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidParameters) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("CheckParameters = %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

func TestCheckStrictSchema(t *testing.T) {
	cases := []struct {
		name, schema, err string
	}{
		{"strict", strictSchema, ""},
		{"no properties", `{"type":"object","additionalProperties":false}`, ""},
		{"nested", `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":["string","null"]}},"required":["b"],"additionalProperties":false},"c":{"type":"array","items":{"type":"integer"}}},"required":["a","c"],"additionalProperties":false}`, ""},
		{"anyOf and defs", `{"type":"object","properties":{"a":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]}},"required":["a"],"additionalProperties":false,"$defs":{"x":{"type":"string","enum":["p","q"]}},"$schema":"https://json-schema.org/draft/2020-12/schema"}`, ""},
		{"open object", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`, `"additionalProperties": false`},
		{"additional true", `{"type":"object","additionalProperties":true}`, `"additionalProperties": false`},
		{"optional property", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}`, `property "b" must be required`},
		{"required unknown", `{"type":"object","properties":{},"required":["x"],"additionalProperties":false}`, `"x", which is not a property`},
		{"required twice", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"],"additionalProperties":false}`, "twice"},
		{"unsupported keyword", `{"type":"object","additionalProperties":false,"minProperties":1}`, `keyword "minProperties"`},
		{"nested unsupported", `{"type":"object","properties":{"a":{"type":"string","pattern":"x"}},"required":["a"],"additionalProperties":false}`, "at /properties/a: keyword \"pattern\""},
		{"nested schema in a list", `{"type":"object","properties":{"a":{"anyOf":[{"type":"object"}]}},"required":["a"],"additionalProperties":false}`, "at /properties/a/anyOf/0"},
		{"boolean subschema", `{"type":"object","properties":{"a":true},"required":["a"],"additionalProperties":false}`, "must be a JSON object"},
		{"schema in $defs", `{"type":"object","additionalProperties":false,"$defs":{"x":{"type":"object"}}}`, "at /$defs/x"},
		{"unknown type", `{"type":"object","properties":{"a":{"type":"text"}},"required":["a"],"additionalProperties":false}`, `unknown type "text"`},
		{"empty anyOf", `{"type":"object","properties":{"a":{"anyOf":[]}},"required":["a"],"additionalProperties":false}`, "non-empty list"},
		{"remote ref", `{"type":"object","properties":{"a":{"$ref":"https://x/y"}},"required":["a"],"additionalProperties":false}`, "same document"},
		{"$schema nested", `{"type":"object","properties":{"a":{"$schema":"x","type":"string"}},"required":["a"],"additionalProperties":false}`, `keyword "$schema"`},
		{"not JSON", `{`, "unexpected EOF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckStrictSchema(json.RawMessage(tc.schema))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("CheckStrictSchema: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrNotStrictCapable) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("CheckStrictSchema = %v, want an error containing %q", err, tc.err)
			}
		})
	}
}
