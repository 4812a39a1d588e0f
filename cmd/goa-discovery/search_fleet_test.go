package main

import (
	"context"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// TestFleetSetEvaluation evaluates search through the CLI's evaluation on
// the pooled catalog of the MCP fleet set (testdata/mcpfleet) against the
// quality targets.
func TestFleetSetEvaluation(t *testing.T) {
	const dir = "../../testdata/mcpfleet/"
	tests := []struct {
		name, tools     string
		wantHit, wantR5 float64
	}{
		{"pooled", dir + "tools.jsonl", 0.95, 0.93},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := readToolsFile(tt.tools)
			if err != nil {
				t.Fatal(err)
			}
			ix, err := toolsearch.NewIndexFromDocuments(docs)
			if err != nil {
				t.Fatal(err)
			}
			queries, err := readQueriesFile(dir+"queries.jsonl", ix)
			if err != nil {
				t.Fatal(err)
			}
			r, err := evaluate(context.Background(), lexicalSearcher(ix), queries, 1)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d tools, %d requests: recall@1 %.3f recall@5 %.3f MRR@5 %.3f hit@5 %.3f", len(docs), len(queries), r.RecallAt1, r.RecallAt5, r.MRRAt5, r.HitAt5)
			if r.RecallAt5 < tt.wantR5 || r.HitAt5 < tt.wantHit {
				t.Errorf("recall@5 %.3f, hit@5 %.3f; want at least %.3f and %.3f", r.RecallAt5, r.HitAt5, tt.wantR5, tt.wantHit)
			}
		})
	}
}
