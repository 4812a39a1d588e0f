package anthropic

import (
	"encoding/json"
	"testing"
)

// TestSchemaComplexity checks the counts the strict limits are held to.
func TestSchemaComplexity(t *testing.T) {
	tests := []struct {
		name             string
		schema           string
		optional, unions int
	}{
		{"all required", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, 0, 0},
		{"one optional", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}`, 1, 0},
		{"type list", `{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}`, 0, 1},
		{"single type in a list", `{"type":"object","properties":{"a":{"type":["string"]}},"required":["a"]}`, 0, 0},
		{"anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["a"]}`, 0, 1},
		{"nested in items and defs", `{"type":"object","properties":{"xs":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}}}}},"required":["xs"],"$defs":{"d":{"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}}}`, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var root any
			if err := json.Unmarshal([]byte(tt.schema), &root); err != nil {
				t.Fatal(err)
			}
			o, u := schemaComplexity(root)
			if o != tt.optional || u != tt.unions {
				t.Errorf("optional %d, unions %d; want %d, %d", o, u, tt.optional, tt.unions)
			}
		})
	}
}
