package discovery

import (
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// FuzzValidateHistory decodes a history from JSON and validates it. A
// history it accepts must declare, and every declared discovered tool must
// be a snapshot that passes CheckSnapshot.
func FuzzValidateHistory(f *testing.F) {
	seed := func(msgs []model.Message) {
		data, err := json.Marshal(msgs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	seed(discoveredHistory())
	seed([]model.Message{model.UserMessage("hi"), model.AssistantMessage(discoveryCall("d1", "a"))})
	seed([]model.Message{model.UserMessage("hi"), model.AssistantMessage(toolCall("c", "x"), discoveryCall("d", "a")),
		model.DiscoveryMessage(result("d", strictSnap("s"))), model.ToolMessage(toolResult("c", "x"))})
	f.Add([]byte(`[{"role":"discovery","parts":[{"kind":"discovery_result","discovery_result":{"call_id":"x"}}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var msgs []model.Message
		if err := json.Unmarshal(data, &msgs); err != nil {
			return
		}
		if err := ValidateHistory(msgs); err != nil {
			return
		}
		d, err := Declare(nil, msgs, Options{Enabled: true, Strict: model.StrictLimits{Supported: true, MaxTools: 1}})
		if err != nil {
			t.Fatalf("Declare rejected a valid history: %v", err)
		}
		strict := 0
		for _, def := range d.Tools[1:] {
			if def.Kind != model.ToolDiscovered {
				t.Fatalf("declared %q of kind %q", def.Name, def.Kind)
			}
			if def.Strict {
				strict++
			}
		}
		if strict > 1 {
			t.Fatalf("declared %d strict tools beyond the limit of 1", strict)
		}
		for _, s := range Discovered(msgs) {
			if err := CheckSnapshot(s); err != nil {
				t.Fatalf("a valid history holds an invalid snapshot: %v", err)
			}
		}
	})
}

// FuzzCheckSnapshot checks snapshots of any name and parameters. A
// snapshot it accepts must make a catalog that answers it by name.
func FuzzCheckSnapshot(f *testing.F) {
	f.Add("records_lookup", []byte(objectSchema), false)
	f.Add("strict", []byte(strictSchema), true)
	f.Add("open", []byte(objectSchema), true)
	f.Add("a.b", []byte(`{"type":"string"}`), false)
	f.Add("x", []byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"anyOf":[{"type":"null"}]}}}`), true)
	f.Fuzz(func(t *testing.T, name string, params []byte, strict bool) {
		s := model.ToolSnapshot{Name: name, Description: "d", Parameters: params}
		if strict {
			s.Strict = new(true)
		}
		if err := CheckSnapshot(s); err != nil {
			return
		}
		if strict {
			if err := CheckStrictSchema(params); err != nil {
				t.Fatalf("accepted a strict snapshot outside the contract: %v", err)
			}
		}
		c, err := NewCatalog([]Entry{{Snapshot: s}}, nil)
		if err != nil {
			t.Fatalf("NewCatalog rejected a valid snapshot: %v", err)
		}
		r, err := c.Answer(model.DiscoveryCall{ID: "d", Names: []string{name}}, 0)
		if err != nil || len(r.Tools) != 1 || r.Tools[0].Name != name {
			t.Fatalf("Answer = %+v, %v", r, err)
		}
		if err := CheckSnapshot(r.Tools[0]); err != nil {
			t.Fatalf("the catalog answered an invalid snapshot: %v", err)
		}
	})
}
