package mcp

import (
	"encoding/json"
	"testing"
)

// TestWithoutNulls checks that a result's null members are removed at
// the optional properties the declared schema states, and kept where the
// schema requires the property, declares it Any or does not state it.
func TestWithoutNulls(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"string"},"r":{"type":"string"},"any":{},
		"list":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}}}},
		"m":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}}},"required":["r"]}`
	for _, tc := range []struct{ in, want string }{
		{`{"a":null,"r":null,"any":null,"other":null}`, `{"any":null,"other":null,"r":null}`},
		{`{"list":[{"n":null},{"n":1}],"m":{"k":{"x":null}}}`, `{"list":[{},{"n":1}],"m":{"k":{}}}`},
		{`{"a":"x"}`, `{"a":"x"}`},
	} {
		v, err := decodeNumbers([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		s, err := decodeNumbers([]byte(schema))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(withoutNulls(v, canonicalSchema(s)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("withoutNulls(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
