package discovery

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/google/go-cmp/cmp"
)

func TestEntryFromSchema(t *testing.T) {
	ts := &tools.ToolSchema{
		Name:        "records.lookup",
		Title:       "Lookup",
		Description: "Look up a record <by id>",
		Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"a <b>"},"tenant":{"type":"string"}},"required":["tenant","id"]}`),
		Contract: &tools.Contract{
			SearchTerms:      []string{"find"},
			ServerOnlyFields: []string{"tenant"},
		},
	}
	e, err := EntryFromSchema(ts)
	if err != nil {
		t.Fatalf("EntryFromSchema: %v", err)
	}
	want := Entry{
		Snapshot: model.ToolSnapshot{
			Name:        "records_lookup",
			Description: "Look up a record <by id>",
			Parameters:  json.RawMessage(`{"properties":{"id":{"type":"string","description":"a <b>"}},"required":["id"],"type":"object"}`),
			Namespace:   "records",
		},
		Name:        "records.lookup",
		Title:       "Lookup",
		SearchTerms: []string{"find"},
	}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("entry (-want +got):\n%s", diff)
	}

	plain := &tools.ToolSchema{Name: "mail.send", Description: "Send", Payload: json.RawMessage(`{"type":"object","properties":{"to":{}}}`)}
	e, err = EntryFromSchema(plain)
	if err != nil {
		t.Fatal(err)
	}
	if string(e.Snapshot.Parameters) != string(plain.Payload) {
		t.Errorf("parameters without server-only fields changed: %s", e.Snapshot.Parameters)
	}
	c, err := NewCatalog([]Entry{e}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.Answer(model.DiscoveryCall{ID: "d", Names: []string{"mail.send"}}, 0); err != nil || len(r.Tools) != 1 {
		t.Errorf("Answer by identifier = %+v, %v", r, err)
	}

	bad := &tools.ToolSchema{Name: "x", Payload: json.RawMessage(`{"type":"object"}`)}
	if _, err := EntryFromSchema(bad); !errors.Is(err, tools.ErrInvalidSchema) {
		t.Errorf("EntryFromSchema(invalid) = %v", err)
	}
}

// TestEntryParametersAreTheModelSchema checks that a catalog entry's
// parameters are exactly the contract's model-facing schema, and that
// removing server-only fields never leaves an empty "required" (which
// JSON Schema 2020-12 allows but the model-facing form omits).
func TestEntryParametersAreTheModelSchema(t *testing.T) {
	for _, tc := range []struct {
		name       string
		payload    string
		serverOnly []string
		want       string
	}{
		{
			name:       "every required field server-only",
			payload:    `{"type":"object","properties":{"tenant":{"type":"string"},"q":{"type":"string"}},"required":["tenant"]}`,
			serverOnly: []string{"tenant"},
			want:       `{"properties":{"q":{"type":"string"}},"type":"object"}`,
		},
		{
			name:       "some required fields server-only",
			payload:    `{"type":"object","properties":{"tenant":{"type":"string"},"q":{"type":"string"}},"required":["q","tenant"]}`,
			serverOnly: []string{"tenant"},
			want:       `{"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"}`,
		},
		{
			name:       "no required member",
			payload:    `{"type":"object","properties":{"tenant":{"type":"string"},"q":{"type":"string"}}}`,
			serverOnly: []string{"tenant"},
			want:       `{"properties":{"q":{"type":"string"}},"type":"object"}`,
		},
		{
			name:    "no server-only fields",
			payload: `{"type":"object", "properties":{"q":{"type":"string"}}, "required":[]}`,
			want:    `{"type":"object", "properties":{"q":{"type":"string"}}, "required":[]}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := &tools.ToolSchema{Name: "records.find", Description: "Find records", Payload: json.RawMessage(tc.payload)}
			if tc.serverOnly != nil {
				ts.Contract = &tools.Contract{ServerOnlyFields: tc.serverOnly}
			}
			e, err := EntryFromSchema(ts)
			if err != nil {
				t.Fatalf("EntryFromSchema: %v", err)
			}
			if got := string(e.Snapshot.Parameters); got != tc.want {
				t.Errorf("parameters = %s, want %s", got, tc.want)
			}
			ms, err := contract.ModelSchema(ts)
			if err != nil {
				t.Fatalf("ModelSchema: %v", err)
			}
			if string(ms) != string(e.Snapshot.Parameters) {
				t.Errorf("entry parameters %s differ from the model schema %s", e.Snapshot.Parameters, ms)
			}
			if err := CheckParameters(e.Snapshot.Parameters); err != nil {
				t.Errorf("CheckParameters: %v", err)
			}
		})
	}
}
