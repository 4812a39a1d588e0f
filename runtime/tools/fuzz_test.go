package tools

import (
	"encoding/json"
	"math/big"
	"testing"
	"unicode/utf8"
)

// FuzzToolsetSchema decodes and validates registry input: no panic, and
// every accepted record can be fingerprinted and compiled.
func FuzzToolsetSchema(f *testing.F) {
	seed, _ := json.Marshal(ToolsetSchema{Name: "records", Tools: []ToolSchema{lookupSchema(), searchSchema()}})
	f.Add(seed)
	f.Add([]byte(`{"name":"x","tools":[{"name":"x.y","description":"","payload":{"type":"object","$ref":"#/$defs/a","$defs":{"a":{}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ts ToolsetSchema
		if json.Unmarshal(data, &ts) != nil || ts.Validate() != nil {
			return
		}
		if _, err := ToolsetFingerprint(&ts); err != nil {
			t.Fatalf("valid toolset cannot be fingerprinted: %v", err)
		}
		for _, tool := range ts.Tools {
			if s, err := CompileSchema(tool.Payload); err == nil {
				_ = s.Validate([]byte(`{}`))
			}
		}
	})
}

// FuzzCompileSchema compiles arbitrary schemas and validates a value
// against the ones that compile: no panic on any input, and a string
// shorter than the root's minLength is never valid (a count too large to
// hold must be refused, not wrapped).
func FuzzCompileSchema(f *testing.F) {
	f.Add([]byte(lookupPayload), []byte(`{"id":"r1"}`))
	f.Add([]byte(`{"type":"array","items":{"$ref":"#"}}`), []byte(`[[[]]]`))
	f.Add([]byte(`{"pattern":"^a+$","minLength":2}`), []byte(`"aaa"`))
	f.Add([]byte(`{"minLength":18446744073709551617}`), []byte(`"ab"`))
	f.Add([]byte(`{"minLength":1e20}`), []byte(`"ab"`))
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		s, err := CompileSchema(schema)
		if err != nil {
			return
		}
		err = s.Validate(value)
		if min, ok := rootMinLength(schema); ok && err == nil {
			var str string
			if json.Unmarshal(value, &str) == nil && big.NewInt(int64(utf8.RuneCountInString(str))).Cmp(min) < 0 {
				t.Fatalf("%s accepts %s, shorter than its minLength %v", schema, value, min)
			}
		}
	})
}

// rootMinLength returns the root minLength of a schema in which it
// applies alone: no $ref or $schema beside it.
func rootMinLength(schema []byte) (*big.Int, bool) {
	var root map[string]json.RawMessage
	if json.Unmarshal(schema, &root) != nil || root["$ref"] != nil || root["$schema"] != nil {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(root["minLength"]))
	if !ok || !r.IsInt() {
		return nil, false
	}
	return r.Num(), true
}
