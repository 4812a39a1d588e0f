package tools

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

var fingerprintPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func TestSchemaFingerprint(t *testing.T) {
	base := []ToolSchema{lookupSchema(), searchSchema()}
	want, err := SchemaFingerprint("records", base)
	if err != nil {
		t.Fatal(err)
	}
	if !fingerprintPattern.MatchString(string(want)) {
		t.Fatalf("fingerprint %q is not sha256:<hex>", want)
	}
	reformatted := lookupSchema()
	reformatted.Payload = json.RawMessage(`{"additionalProperties":false,"required":["id"],"type":"object","properties":{"tenant_id":{"type":"string"},"limit":{"maximum":100,"minimum":1.0,"type":"integer"},"id":{"minLength":1,"type":"string"}}}`)
	changedDesc := searchSchema()
	changedDesc.Description = "Search records"
	changedSchema := searchSchema()
	changedSchema.Payload = json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)
	changedContract := lookupSchema()
	changedContract.Contract.SearchTerms = []string{"find"}

	cases := []struct {
		name    string
		regName string
		tools   []ToolSchema
		same    bool
	}{
		{"identical", "records", []ToolSchema{lookupSchema(), searchSchema()}, true},
		{"tool order", "records", []ToolSchema{searchSchema(), lookupSchema()}, true},
		{"schema formatting and key order", "records", []ToolSchema{reformatted, searchSchema()}, true},
		{"registration name", "records-v2", base, false},
		{"tool description", "records", []ToolSchema{lookupSchema(), changedDesc}, false},
		{"payload schema", "records", []ToolSchema{lookupSchema(), changedSchema}, false},
		{"contract", "records", []ToolSchema{changedContract, searchSchema()}, false},
		{"fewer tools", "records", []ToolSchema{lookupSchema()}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SchemaFingerprint(tc.regName, tc.tools)
			if err != nil {
				t.Fatal(err)
			}
			if (got == want) != tc.same {
				t.Fatalf("fingerprint %s vs base %s: same = %v, want %v", got, want, got == want, tc.same)
			}
		})
	}
}

func TestToolsetFingerprint(t *testing.T) {
	base := ToolsetSchema{
		Name: "records", Title: "Records", Description: "Customer records", Tags: []string{"crm"},
		Version: "1.2.3", Tools: []ToolSchema{lookupSchema(), searchSchema()},
	}
	want, err := ToolsetFingerprint(&base)
	if err != nil {
		t.Fatal(err)
	}
	schemaOnly, err := SchemaFingerprint(base.Name, base.Tools)
	if err != nil {
		t.Fatal(err)
	}
	if schemaOnly == want {
		t.Fatal("toolset fingerprint equals schema fingerprint; want it to cover toolset annotations")
	}
	cases := []struct {
		name   string
		mutate func(*ToolsetSchema)
		same   bool
	}{
		{"registration time", func(ts *ToolsetSchema) { ts.RegisteredAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }, true},
		{"tool order", func(ts *ToolsetSchema) { ts.Tools = []ToolSchema{searchSchema(), lookupSchema()} }, true},
		{"description", func(ts *ToolsetSchema) { ts.Description = "Records" }, false},
		{"tags", func(ts *ToolsetSchema) { ts.Tags = []string{"crm", "read"} }, false},
		{"title", func(ts *ToolsetSchema) { ts.Title = "" }, false},
		{"version", func(ts *ToolsetSchema) { ts.Version = "1.2.4" }, false},
		{"name", func(ts *ToolsetSchema) { ts.Name = "records2" }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := base
			tc.mutate(&ts)
			got, err := ToolsetFingerprint(&ts)
			if err != nil {
				t.Fatal(err)
			}
			if (got == want) != tc.same {
				t.Fatalf("same = %v, want %v", got == want, tc.same)
			}
			schemaFP, err := SchemaFingerprint(ts.Name, ts.Tools)
			if err != nil {
				t.Fatal(err)
			}
			if ts.Name == base.Name && schemaFP != schemaOnly {
				t.Fatalf("schema fingerprint changed with toolset annotations: %s vs %s", schemaFP, schemaOnly)
			}
		})
	}
}

// TestFingerprintNoTools checks that a nil and an empty list of tools,
// which encode as null and [], fingerprint alike.
func TestFingerprintNoTools(t *testing.T) {
	nilSchemas, err := SchemaFingerprint("records", nil)
	if err != nil {
		t.Fatal(err)
	}
	emptySchemas, err := SchemaFingerprint("records", []ToolSchema{})
	if err != nil {
		t.Fatal(err)
	}
	if nilSchemas != emptySchemas {
		t.Errorf("SchemaFingerprint: nil tools %s, empty tools %s; want one fingerprint", nilSchemas, emptySchemas)
	}
	nilToolset, err := ToolsetFingerprint(&ToolsetSchema{Name: "records"})
	if err != nil {
		t.Fatal(err)
	}
	emptyToolset, err := ToolsetFingerprint(&ToolsetSchema{Name: "records", Tools: []ToolSchema{}})
	if err != nil {
		t.Fatal(err)
	}
	if nilToolset != emptyToolset {
		t.Errorf("ToolsetFingerprint: nil tools %s, empty tools %s; want one fingerprint", nilToolset, emptyToolset)
	}
}

func TestFingerprintRejects(t *testing.T) {
	_, err := SchemaFingerprint("records", []ToolSchema{searchSchema(), searchSchema()})
	if !errors.Is(err, ErrInvalidSchema) || !strings.Contains(err.Error(), `"records.search" listed twice`) {
		t.Fatalf("duplicate tools: err = %v", err)
	}
	bad := searchSchema()
	bad.Payload = json.RawMessage(`{"type":`)
	if _, err := ToolsetFingerprint(&ToolsetSchema{Name: "records", Tools: []ToolSchema{bad}}); err == nil {
		t.Fatal("malformed payload schema: want error")
	}
}

func BenchmarkSchemaFingerprint(b *testing.B) {
	tools := []ToolSchema{lookupSchema(), searchSchema()}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SchemaFingerprint("records", tools); err != nil {
			b.Fatal(err)
		}
	}
}
