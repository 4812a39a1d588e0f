package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
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

// TestSearchCommandMisses lists the requests whose top 5 holds none of
// their gold tools, as text and as one JSON object a request.
func TestSearchCommandMisses(t *testing.T) {
	tools := writeFile(t, "tools.jsonl", testTools)
	queries := writeFile(t, "queries.jsonl", `{"query": "weather forecast for Paris", "gold": ["weather.forecast"]}
{"query": "send an email", "gold": ["files.list"], "id": "q2"}
{"query": "zzz", "gold": ["email.send"]}
{"query": "please help me", "gold": ["email.send"], "id": "q4"}
`)
	tests := []struct {
		name string
		args []string
		want []string // the lines after the evaluation
	}{
		{"text", nil, []string{
			"missed: 3 of 4 queries",
			`"send an email"`, "  gold: files.list", "  top:  email.send",
			`"zzz"`, "  gold: email.send", "  top:  none", `  note: No available tool matches the query "zzz".`,
			`"please help me"`, "  gold: email.send", "  top:  none",
			`  note: The query "please help me" names nothing searchable: its words only frame a request or join words (such as "please", "help me", "the", "de", "から"); say what the tool does.`,
		}},
		{"json", []string{"--json"}, []string{
			`{"query":"send an email","id":"q2","gold":["files.list"],"top":["email.send"]}`,
			`{"query":"zzz","gold":["email.send"],"top":[],"note":"No available tool matches the query \"zzz\"."}`,
			`{"query":"please help me","id":"q4","gold":["email.send"],"top":[],"note":"The query \"please help me\" names nothing searchable: its words only frame a request or join words (such as \"please\", \"help me\", \"the\", \"de\", \"から\"); say what the tool does."}`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"--tools", tools, "--queries", queries, "--passes", "1", "--misses"}, tt.args...)
			if code := runSearch(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if len(lines) < len(tt.want) {
				t.Fatalf("output %q, want it to end with %q", stdout.String(), tt.want)
			}
			if got := lines[len(lines)-len(tt.want):]; !slices.Equal(got, tt.want) {
				t.Errorf("output ends with %q, want %q", got, tt.want)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := runSearch([]string{"--tools", tools, "--misses", "weather"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--misses applies to --queries evaluation") {
		t.Errorf("--misses with a QUERY: exit %d, stderr %q; want 2 and a usage error", code, stderr.String())
	}
}
