package contract

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// lookupRecord returns a tool record with every contract feature; each call
// returns a fresh copy that tests may change.
func lookupRecord() tools.ToolSchema {
	return tools.ToolSchema{
		Name:        "records.lookup",
		Description: "Look up a record by id",
		Payload: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","minLength":1,"description":"a <b> id"},` +
			`"limit":{"type":"integer","minimum":1},"tenant_id":{"type":"string"}},"required":["id","tenant_id"],"additionalProperties":true}`),
		Result: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Contract: &tools.Contract{
			Fields:           []tools.FieldMeta{{Path: "/secret", Sensitive: true}},
			RequiredLabels:   map[string]string{"tenant": "acme"},
			Confirmation:     &tools.Confirmation{Title: "Look up", Template: `Look up {{ .id }} ({{ json (index . "limit") }}) {{ index . "secret" }}`},
			ServerOnlyFields: []string{"tenant_id"},
		},
	}
}

func TestCompile(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(*tools.ToolSchema)
		wantErr string
	}{
		{"valid", func(*tools.ToolSchema) {}, ""},
		{"no result", func(ts *tools.ToolSchema) { ts.Result = nil }, ""},
		{"no contract", func(ts *tools.ToolSchema) { ts.Contract = nil }, ""},
		{"bad name", func(ts *tools.ToolSchema) { ts.Name = "lookup" }, `invalid tool identifier "lookup"`},
		{"payload not an object schema", func(ts *tools.ToolSchema) { ts.Payload = json.RawMessage(`{"type":"array"}`) }, `"type": "object"`},
		{"payload not JSON Schema", func(ts *tools.ToolSchema) {
			ts.Payload = json.RawMessage(`{"type":"object","properties":{"tenant_id":{}},"minProperties":"two"}`)
		}, `tool "records.lookup": payload: invalid tool schema`},
		{"payload count wraps", func(ts *tools.ToolSchema) {
			ts.Payload = json.RawMessage(`{"type":"object","properties":{"tenant_id":{},"id":{"type":"string","minLength":18446744073709551617}}}`)
		}, `tool "records.lookup": payload: invalid tool schema: /properties/id/minLength: 18446744073709551617 is too large`},
		{"result count wraps", func(ts *tools.ToolSchema) { ts.Result = json.RawMessage(`{"type":"array","maxItems":1e20}`) }, `tool "records.lookup": result: invalid tool schema: /maxItems: 1e20 is too large`},
		{"result not JSON Schema", func(ts *tools.ToolSchema) { ts.Result = json.RawMessage(`{"type":7}`) }, `tool "records.lookup": result: invalid tool schema`},
		{"server-only not a property", func(ts *tools.ToolSchema) { ts.Contract.ServerOnlyFields = []string{"owner"} }, `server-only field "owner"`},
		{"server-only twice", func(ts *tools.ToolSchema) { ts.Contract.ServerOnlyFields = []string{"tenant_id", "tenant_id"} }, `server-only field "tenant_id" listed twice`},
		{"bad confirmation", func(ts *tools.ToolSchema) { ts.Contract.Confirmation.Template = "{{ .id " }, "confirmation template"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := lookupRecord()
			tc.edit(&rec)
			spec, err := Compile(&rec)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Compile error = %v, want it to contain %q", err, tc.wantErr)
				}
				if !errors.Is(err, tools.ErrInvalidSchema) {
					t.Fatalf("Compile error = %v, want it to match tools.ErrInvalidSchema", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if spec.Name != rec.Name || spec.Description != rec.Description {
				t.Fatalf("spec = %q %q, want %q %q", spec.Name, spec.Description, rec.Name, rec.Description)
			}
			if (spec.Result == nil) != (len(rec.Result) == 0) {
				t.Fatalf("spec.Result = %v with result schema %q", spec.Result, rec.Result)
			}
		})
	}
}

func TestCompileNil(t *testing.T) {
	if _, err := Compile(nil); !errors.Is(err, tools.ErrInvalidSchema) {
		t.Fatalf("Compile(nil) = %v, want tools.ErrInvalidSchema", err)
	}
}

func TestCompiledSpecDoesNotAliasRecord(t *testing.T) {
	rec := lookupRecord()
	spec, err := Compile(&rec)
	if err != nil {
		t.Fatal(err)
	}
	rec.Contract.RequiredLabels["tenant"] = "other"
	rec.Contract.Confirmation.Template = "changed"
	rec.Contract.ServerOnlyFields[0] = "id"
	if spec.Contract.RequiredLabels["tenant"] != "acme" || spec.Contract.Confirmation.Template == "changed" || spec.Contract.ServerOnlyFields[0] != "tenant_id" {
		t.Fatalf("spec contract follows edits of the record: %+v", spec.Contract)
	}
	if _, err := spec.Payload.Decode([]byte(`{"id":"r1","tenant_id":"t"}`)); err == nil {
		t.Fatal("payload codec accepted a server-only field after the record was edited")
	}
}

func TestPayloadCodec(t *testing.T) {
	rec := lookupRecord()
	spec, err := Compile(&rec)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"valid", `{"id":"r1","limit":2}`, ""},
		{"server-only field sent", `{"id":"r1","tenant_id":"t1"}`, `property "tenant_id" is filled by the server`},
		{"missing id", `{"limit":2}`, "missing property 'id'"},
		{"not an object", `[1]`, "got array, want object"},
		{"malformed", `{"id":`, "invalid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := spec.Payload.Decode([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Decode error = %v, want it to contain %q", err, tc.wantErr)
				}
				if !errors.Is(err, tools.ErrPayloadInvalid) {
					t.Fatalf("Decode error = %v, want tools.ErrPayloadInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(v.(json.RawMessage)); got != tc.in {
				t.Fatalf("Decode = %s, want %s", got, tc.in)
			}
			out, err := spec.Payload.Encode(v)
			if err != nil || string(out) != tc.in {
				t.Fatalf("Encode = %s, %v; want %s", out, err, tc.in)
			}
		})
	}
	if _, err := spec.Payload.Encode(map[string]string{"id": "r1", "tenant_id": "x"}); err == nil {
		t.Fatal("Encode accepted a server-only field")
	}
	if _, err := spec.Result.Decode([]byte(`{}`)); !errors.Is(err, tools.ErrPayloadInvalid) {
		t.Fatalf("result Decode({}) = %v, want a violation of required name", err)
	}
}

func TestModelSchema(t *testing.T) {
	cases := []struct {
		name string
		edit func(*tools.ToolSchema)
		want string
	}{
		{"no server-only fields keeps bytes", func(ts *tools.ToolSchema) {
			ts.Contract.ServerOnlyFields = nil
			ts.Payload = json.RawMessage(`{ "type" : "object" }`)
		}, `{ "type" : "object" }`},
		{"server-only field removed", func(*tools.ToolSchema) {},
			`{"additionalProperties":true,"properties":{"id":{"type":"string","minLength":1,"description":"a <b> id"},"limit":{"type":"integer","minimum":1}},"required":["id"],"type":"object"}`},
		{"required emptied", func(ts *tools.ToolSchema) {
			ts.Payload = json.RawMessage(`{"type":"object","properties":{"tenant_id":{}},"required":["tenant_id"]}`)
		}, `{"properties":{},"type":"object"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := lookupRecord()
			tc.edit(&rec)
			got, err := ModelSchema(&rec)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("ModelSchema =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestModelSchemaRejects(t *testing.T) {
	cases := []struct {
		name, payload, wantErr string
	}{
		{"duplicate key", `{"type":"object","properties":{"tenant_id":{}},"properties":{}}`, `duplicate object key "properties"`},
		{"properties not an object", `{"type":"object","properties":[]}`, `"properties" is not an object`},
		{"required not strings", `{"type":"object","properties":{"tenant_id":{}},"required":[1]}`, `"required" is not an array of strings`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := lookupRecord()
			rec.Payload = json.RawMessage(tc.payload)
			_, err := ModelSchema(&rec)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, tools.ErrInvalidSchema) {
				t.Fatalf("ModelSchema error = %v, want tools.ErrInvalidSchema containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestCloneToolset(t *testing.T) {
	orig := recordsToolset()
	cp := CloneToolset(orig)
	want, err := tools.ToolsetFingerprint(orig)
	if err != nil {
		t.Fatal(err)
	}
	cp.Tags[0] = "x"
	cp.Tools[0].Payload[0] = ' '
	cp.Tools[0].Contract.RequiredLabels["tenant"] = "other"
	cp.Tools[0].Contract.Confirmation.Template = "changed"
	cp.Tools[1].Description = "changed"
	got, err := tools.ToolsetFingerprint(orig)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatal("editing the clone changed the original")
	}
}
