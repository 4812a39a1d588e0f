package contract

import (
	"encoding/json"
	"testing"
)

// FuzzCompile compiles tool records decoded from arbitrary JSON, as a
// registry receives them: no panic, and every compiled spec decodes or
// refuses a payload without panicking and agrees with ModelSchema.
func FuzzCompile(f *testing.F) {
	seed, _ := json.Marshal(lookupRecord())
	f.Add(seed, []byte(`{"id":"r1"}`))
	f.Add([]byte(`{"name":"a.b","description":"","payload":{"type":"object"},"contract":{"server_only_fields":["x"]}}`), []byte(`{"x":1}`))
	f.Add([]byte(`{"name":"a.b","description":"","payload":{"type":"object","properties":{"x":{}},"required":["x","y"]},"contract":{"server_only_fields":["x"]}}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, record, payload []byte) {
		ts := lookupRecord()
		ts.Contract = nil
		if json.Unmarshal(record, &ts) != nil {
			return
		}
		spec, err := Compile(&ts)
		if err != nil {
			return
		}
		model, err := ModelSchema(&ts)
		if err != nil {
			t.Fatalf("compiled record has no model schema: %v", err)
		}
		if string(spec.Payload.Schema().Raw()) != string(model) {
			t.Fatalf("spec schema %s differs from model schema %s", spec.Payload.Schema().Raw(), model)
		}
		_, _ = spec.Payload.Decode(payload)
		_, _ = Confirm(spec, payload)
	})
}
