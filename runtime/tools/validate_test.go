package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestToolsetSchemaValidate(t *testing.T) {
	valid := func() ToolsetSchema {
		return ToolsetSchema{Name: "records", Tools: []ToolSchema{lookupSchema(), searchSchema()}}
	}
	cases := []struct {
		name   string
		mutate func(*ToolsetSchema)
		want   string
	}{
		{"valid", func(*ToolsetSchema) {}, ""},
		{"bad toolset name", func(ts *ToolsetSchema) { ts.Name = "rec.ords" }, `toolset "rec.ords": name "rec.ords" has byte '.'`},
		{"no tools", func(ts *ToolsetSchema) { ts.Tools = nil }, `toolset "records" has no tools`},
		{"foreign tool", func(ts *ToolsetSchema) { ts.Tools[1].Name = "other.search" }, `tool "other.search" belongs to toolset "other"`},
		{"duplicate tool", func(ts *ToolsetSchema) { ts.Tools[1] = lookupSchema() }, `tool "records.lookup" listed twice`},
		{"bad ident", func(ts *ToolsetSchema) { ts.Tools[0].Name = "records" }, `tool 0: invalid tool schema: invalid tool identifier "records"`},
		{"payload missing", func(ts *ToolsetSchema) { ts.Tools[0].Payload = nil }, "payload: schema is missing"},
		{"payload duplicate key", func(ts *ToolsetSchema) { ts.Tools[0].Payload = json.RawMessage(`{"type":"string","type":"object"}`) }, `payload: schema: invalid JSON: duplicate object key "type"`},
		{"payload not object", func(ts *ToolsetSchema) { ts.Tools[0].Payload = json.RawMessage(`[]`) }, "payload: schema is not a JSON object"},
		{"payload type string", func(ts *ToolsetSchema) { ts.Tools[0].Payload = json.RawMessage(`{"type":"string"}`) }, `payload: schema must have "type": "object" at its root, got "string"`},
		{"payload without type", func(ts *ToolsetSchema) { ts.Tools[0].Payload = json.RawMessage(`{}`) }, `got no type`},
		{"result not object", func(ts *ToolsetSchema) { ts.Tools[0].Result = json.RawMessage(`true`) }, "result: schema is not a JSON object"},
		{"field path", func(ts *ToolsetSchema) { ts.Tools[0].Contract.Fields[0].Path = "id" }, `field 0: path "id" is not a JSON Pointer`},
		{"partner", func(ts *ToolsetSchema) { ts.Tools[0].Contract.PaginationPartner = "next" }, "pagination partner: invalid tool identifier"},
		{"empty label", func(ts *ToolsetSchema) { ts.Tools[0].Contract.RequiredLabels[""] = "x" }, "required label with an empty name"},
		{"server-only empty", func(ts *ToolsetSchema) { ts.Tools[0].Contract.ServerOnlyFields = []string{""} }, "server-only field 0 is empty"},
		{"server-only twice", func(ts *ToolsetSchema) { ts.Tools[0].Contract.ServerOnlyFields = []string{"tenant_id", "tenant_id"} }, `server-only field "tenant_id" listed twice`},
		{"server-only undeclared", func(ts *ToolsetSchema) { ts.Tools[0].Contract.ServerOnlyFields = []string{"owner"} }, `server-only field "owner" is not a property of the payload`},
		{"empty search term", func(ts *ToolsetSchema) { ts.Tools[0].Contract.SearchTerms = []string{"find", " "} }, "search term 1 is empty"},
		{"template syntax", func(ts *ToolsetSchema) { ts.Tools[0].Contract.Confirmation.Template = "{{ .id " }, "confirmation template: template: confirmation:1: unclosed action"},
		{"template empty", func(ts *ToolsetSchema) { ts.Tools[0].Contract.Confirmation.Template = " " }, "confirmation template is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := valid()
			tc.mutate(&ts)
			err := ts.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate error = %v, want ErrInvalidSchema containing %q", err, tc.want)
			}
		})
	}
}

func TestContractAllowsLabels(t *testing.T) {
	c := &Contract{RequiredLabels: map[string]string{"tenant": "acme", "tier": "gold"}}
	cases := []struct {
		labels map[string]string
		want   bool
	}{
		{map[string]string{"tenant": "acme", "tier": "gold", "x": "y"}, true},
		{map[string]string{"tenant": "acme"}, false},
		{map[string]string{"tenant": "acme", "tier": "silver"}, false},
		{nil, false},
	}
	for _, tc := range cases {
		if got := c.AllowsLabels(tc.labels); got != tc.want {
			t.Errorf("AllowsLabels(%v) = %v, want %v", tc.labels, got, tc.want)
		}
	}
	var none *Contract
	if !none.AllowsLabels(nil) {
		t.Error("nil contract must allow every run")
	}
}

func TestToolSchemaJSONRoundTrip(t *testing.T) {
	in := ToolsetSchema{Name: "records", Description: "d", Tags: []string{"a"}, Version: "1.0.0", Tools: []ToolSchema{lookupSchema()}}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "registered_at") {
		t.Fatalf("zero registration time encoded: %s", raw)
	}
	var out ToolsetSchema
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(out)
	if err != nil || string(again) != string(raw) {
		t.Fatalf("round trip changed the record:\n%s\n%s", raw, again)
	}
}
