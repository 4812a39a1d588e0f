package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/escalation"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// catalogDir holds the catalog that the README's search example reads from
// a fresh clone: the tools of the example design, one JSON line each.
const catalogDir = moduleRoot + "/testdata/catalog/"

// TestExampleCatalog checks that testdata/catalog/tools.jsonl is the example
// design's generated tool schemas in the search command's line format
// (GOA_DISCOVERY_UPDATE=1 rewrites it).
func TestExampleCatalog(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, schemas := range [][]tools.ToolSchema{customers.ToolSchemas(), escalation.ToolSchemas(), knowledge.ToolSchemas(), tickets.ToolSchemas()} {
		for _, s := range schemas {
			line := struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			}{string(s.Name), s.Description, s.Payload}
			if err := enc.Encode(line); err != nil {
				t.Fatal(err)
			}
		}
	}
	golden.File(t, catalogDir+"tools.jsonl", buf.Bytes())
}

// TestSearchExampleCatalog runs the README's search commands on the shipped
// catalog.
func TestSearchExampleCatalog(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"query", []string{"--tools", catalogDir + "tools.jsonl", "close", "a", "solved", "ticket"}, "tickets.close_ticket"},
		{"evaluation", []string{"--tools", catalogDir + "tools.jsonl", "--queries", catalogDir + "queries.jsonl", "--passes", "1"}, "recall@5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runSearch(tc.args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.want) {
				t.Errorf("stdout does not hold %q:\n%s", tc.want, stdout.String())
			}
		})
	}
}
