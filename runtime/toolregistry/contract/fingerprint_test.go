package contract

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func recordsToolset() *tools.ToolsetSchema {
	return &tools.ToolsetSchema{
		Name:        "records",
		Description: "Customer records",
		Tags:        []string{"crm"},
		Version:     "1.2.3",
		Tools: []tools.ToolSchema{lookupRecord(), {
			Name:        "records.search",
			Description: "Search records by keywords",
			Payload:     json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`),
		}},
	}
}

func TestFingerprint(t *testing.T) {
	base, err := Fingerprint(recordsToolset())
	if err != nil {
		t.Fatal(err)
	}
	want, err := tools.ToolsetFingerprint(recordsToolset())
	if err != nil {
		t.Fatal(err)
	}
	if base != want {
		t.Fatalf("Fingerprint = %s, want the tools.ToolsetFingerprint %s", base, want)
	}
	cases := []struct {
		name string
		edit func(*tools.ToolsetSchema)
		same bool
	}{
		{"registration time excluded", func(ts *tools.ToolsetSchema) { ts.RegisteredAt = time.Unix(1700000000, 0) }, true},
		{"tool order excluded", func(ts *tools.ToolsetSchema) { ts.Tools[0], ts.Tools[1] = ts.Tools[1], ts.Tools[0] }, true},
		{"description covered", func(ts *tools.ToolsetSchema) { ts.Description = "Records" }, false},
		{"tags covered", func(ts *tools.ToolsetSchema) { ts.Tags = nil }, false},
		{"version covered", func(ts *tools.ToolsetSchema) { ts.Version = "1.2.4" }, false},
		{"contract covered", func(ts *tools.ToolsetSchema) { ts.Tools[0].Contract.RequiredLabels = nil }, false},
		{"pagination partner covered", func(ts *tools.ToolsetSchema) {
			ts.Tools[1].Contract = &tools.Contract{PaginationPartner: "records.search"}
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := recordsToolset()
			tc.edit(ts)
			got, err := Fingerprint(ts)
			if err != nil {
				t.Fatal(err)
			}
			if (got == base) != tc.same {
				t.Fatalf("Fingerprint = %s, base %s, want same=%v", got, base, tc.same)
			}
		})
	}
	// The registration fingerprint does not cover toolset-level annotations.
	schemaFP, err := tools.SchemaFingerprint("records", recordsToolset().Tools)
	if err != nil {
		t.Fatal(err)
	}
	if schemaFP == base {
		t.Fatal("SchemaFingerprint equals the toolset fingerprint; annotations are not covered")
	}
}

func TestFingerprintRejects(t *testing.T) {
	cases := []struct {
		name string
		ts   *tools.ToolsetSchema
	}{
		{"nil", nil},
		{"no tools", &tools.ToolsetSchema{Name: "records"}},
		{"foreign tool", func() *tools.ToolsetSchema { ts := recordsToolset(); ts.Name = "other"; return ts }()},
		{"bad server-only field", func() *tools.ToolsetSchema {
			ts := recordsToolset()
			ts.Tools[0].Contract.ServerOnlyFields = []string{"nope"}
			return ts
		}()},
		{"pagination partner missing", func() *tools.ToolsetSchema {
			ts := recordsToolset()
			ts.Tools[1].Contract = &tools.Contract{PaginationPartner: "records.more"}
			return ts
		}()},
		{"pagination partner of another toolset", func() *tools.ToolsetSchema {
			ts := recordsToolset()
			ts.Tools[1].Contract = &tools.Contract{PaginationPartner: "billing.search"}
			return ts
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Fingerprint(tc.ts); !errors.Is(err, tools.ErrInvalidSchema) {
				t.Fatalf("Fingerprint error = %v, want tools.ErrInvalidSchema", err)
			}
		})
	}
}
