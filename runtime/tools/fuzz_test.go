package tools

import (
	"encoding/json"
	"testing"
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
// against the ones that compile: no panic on any input.
func FuzzCompileSchema(f *testing.F) {
	f.Add([]byte(lookupPayload), []byte(`{"id":"r1"}`))
	f.Add([]byte(`{"type":"array","items":{"$ref":"#"}}`), []byte(`[[[]]]`))
	f.Add([]byte(`{"pattern":"^a+$","minLength":2}`), []byte(`"aaa"`))
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		s, err := CompileSchema(schema)
		if err != nil {
			return
		}
		_ = s.Validate(value)
	})
}
