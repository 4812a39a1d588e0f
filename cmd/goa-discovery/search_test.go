package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/internal/embedserver"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

const testTools = `{"name": "weather.forecast", "description": "Get the weather forecast for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
{"name": "weather.alerts", "description": "List severe weather alerts."}
{"name": "email.send", "description": "Send an email message."}
{"name": "files.list", "description": "List the files in a directory."}
`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSearchCommandRanks(t *testing.T) {
	tools := writeFile(t, "tools.jsonl", testTools)
	tests := []struct {
		name  string
		args  []string
		lines []string // expected line prefixes, in order
	}{
		{"ranked tools", []string{"--tools", tools, "weather", "in", "a", "city"}, []string{"1.  weather.forecast", "2.  weather.alerts"}},
		{"limit", []string{"--tools", tools, "--limit", "1", "weather"}, []string{"1.  weather.forecast"}},
		{"exact name", []string{"--tools", tools, "files.list"}, []string{"1.  files.list", "2.  weather.alerts"}},
		{"nothing matches", []string{"--tools", tools, "zzz"}, []string{`No available tool matches the query "zzz".`}},
		{"frame words only", []string{"--tools", tools, "please", "help", "me"}, []string{`The query "please help me" names nothing searchable: `}},
		{"stop word only", []string{"--tools", tools, "the"}, []string{`The query "the" names nothing searchable: `}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runSearch(tt.args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if len(lines) != len(tt.lines) {
				t.Fatalf("output %q, want %d lines", stdout.String(), len(tt.lines))
			}
			for i, prefix := range tt.lines {
				if !strings.HasPrefix(lines[i], prefix) {
					t.Errorf("line %d = %q, want prefix %q", i, lines[i], prefix)
				}
			}
		})
	}
	var stdout, stderr bytes.Buffer
	runSearch([]string{"--tools", tools, "files.list"}, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "exact name,name") {
		t.Errorf("exact match output %q does not say so", stdout.String())
	}
}

func TestSearchCommandEvaluates(t *testing.T) {
	tools := writeFile(t, "tools.jsonl", testTools)
	// The first query finds its tool first, the second second, the third
	// finds one of its two tools first.
	queries := writeFile(t, "queries.jsonl", `{"query": "weather forecast for Paris", "gold": ["weather.forecast"]}
{"query": "severe weather in a city", "gold": ["weather.alerts"]}
{"query": "send an email", "gold": ["email.send", "files.list"], "id": "q3"}
`)
	var stdout, stderr bytes.Buffer
	if code := runSearch([]string{"--tools", tools, "--queries", queries, "--json", "--passes", "2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	var got map[string]float64
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output %q: %v", stdout.String(), err)
	}
	want := map[string]float64{
		"tools": 4, "queries": 3,
		"recall_at_1": (1 + 0 + 0.5) / 3,
		"recall_at_5": (1 + 1 + 0.5) / 3,
		"mrr_at_5":    (1 + 0.5 + 1) / 3,
		"hit_at_5":    1,
	}
	for key, w := range want {
		if v, ok := got[key]; !ok || math.Abs(v-w) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v; output %s", key, v, ok, w, stdout.String())
		}
	}
	for _, key := range []string{"p50_us", "p99_us", "build_ms"} {
		if v, ok := got[key]; !ok || v < 0 {
			t.Errorf("%s = %v (present %v)", key, v, ok)
		}
	}
	if got["p99_us"] < got["p50_us"] {
		t.Errorf("p99 %v below p50 %v", got["p99_us"], got["p50_us"])
	}
	// Each half averages the recall@5 (1, 1 and 0.5) and hit@5 (all 1) of
	// its queries.
	perQuery := []struct {
		q      catalogfile.Query
		recall float64
	}{
		{catalogfile.Query{Text: "weather forecast for Paris"}, 1},
		{catalogfile.Query{Text: "severe weather in a city"}, 1},
		{catalogfile.Query{Text: "send an email", ID: "q3"}, 0.5},
	}
	var sum, n [2]float64
	for _, pq := range perQuery {
		h := queryHalf(pq.q)
		sum[h] += pq.recall
		n[h]++
	}
	for h, key := range []string{"half0_recall_at_5", "half1_recall_at_5"} {
		w := 0.0
		if n[h] > 0 {
			w = sum[h] / n[h]
		}
		if math.Abs(got[key]-w) > 1e-9 {
			t.Errorf("%s = %v, want %v", key, got[key], w)
		}
		hitKey := strings.Replace(key, "recall", "hit", 1)
		if wantHit := min(n[h], 1); got[hitKey] != wantHit {
			t.Errorf("%s = %v, want %v", hitKey, got[hitKey], wantHit)
		}
	}
	if n[0] == 0 || n[1] == 0 {
		t.Errorf("the three queries all fall in one half: %v", n)
	}
	if len(got) != len(want)+7 {
		t.Errorf("keys %v, want exactly the documented ones", got)
	}

	stdout.Reset()
	if code := runSearch([]string{"--tools", tools, "--queries", queries}, &stdout, &stderr); code != 0 {
		t.Fatalf("text evaluation: exit %d, stderr %q", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "recall@5 0.833") {
		t.Errorf("text evaluation %q lacks recall@5 0.833", stdout.String())
	}
}

func TestSearchCommandErrors(t *testing.T) {
	tools := writeFile(t, "tools.jsonl", testTools)
	badTools := writeFile(t, "bad.jsonl", `{"name": "a"}`+"\n"+`{"name": 3}`)
	badQueries := writeFile(t, "queries.jsonl", `{"query": "x", "gold": ["nope"]}`)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no tools flag", []string{"weather"}, 2, "--tools is required"},
		{"no query", []string{"--tools", tools}, 2, "give a QUERY or --queries FILE"},
		{"query and query set", []string{"--tools", tools, "--queries", tools, "weather"}, 2, "not both"},
		{"json without query set", []string{"--tools", tools, "--json", "weather"}, 2, "--json applies"},
		{"zero limit", []string{"--tools", tools, "--limit", "0", "weather"}, 2, "--limit must be at least 1"},
		{"limit with query set", []string{"--tools", tools, "--queries", tools, "--limit", "3"}, 2, "--limit applies to a QUERY"},
		{"passes without query set", []string{"--tools", tools, "--passes", "3", "weather"}, 2, "--passes applies to --queries"},
		{"unknown flag", []string{"--tools", tools, "--nope", "weather"}, 2, "flag provided but not defined"},
		{"missing file", []string{"--tools", filepath.Join(t.TempDir(), "none.jsonl"), "x"}, 1, "no such file"},
		{"malformed tools", []string{"--tools", badTools, "x"}, 1, "line 2"},
		{"unknown gold tool", []string{"--tools", tools, "--queries", badQueries}, 1, `gold tool "nope" is not in the catalog`},
		{"embeddings model without embeddings", []string{"--tools", tools, "--embeddings-model", "m", "weather"}, 2, "--embeddings-model applies with --embeddings URL"},
		{"embeddings without URL", []string{"--tools", tools, "--embeddings", "", "weather"}, 2, "--embeddings names no URL"},
		{"embeddings server down", []string{"--tools", tools, "--embeddings", "http://127.0.0.1:1/v1/", "--embed-cache", t.TempDir(), "--embed-retries", "1", "weather"}, 1, "--embeddings http://127.0.0.1:1/v1/: embedding failed: texts 1-4 of 4, attempt 1 of 1"},
		{"embed batch without embeddings", []string{"--tools", tools, "--embed-batch", "8", "weather"}, 2, "apply with --embeddings URL"},
		{"zero embed batch", []string{"--tools", tools, "--embeddings", "http://127.0.0.1:1/v1/", "--embed-batch", "0", "weather"}, 2, "--embed-batch must be at least 1, got 0"},
		{"zero embed retries", []string{"--tools", tools, "--embeddings", "http://127.0.0.1:1/v1/", "--embed-retries", "0", "weather"}, 2, "--embed-retries must be at least 1, got 0"},
		{"empty embed cache", []string{"--tools", tools, "--embeddings", "http://127.0.0.1:1/v1/", "--embed-cache", "", "weather"}, 2, "--embed-cache names no directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runSearch(tt.args, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}

func TestScoreRanking(t *testing.T) {
	ranking := func(names ...string) []toolsearch.Result {
		out := make([]toolsearch.Result, len(names))
		for i, n := range names {
			out[i] = toolsearch.Result{Name: n}
		}
		return out
	}
	tests := []struct {
		name    string
		results []toolsearch.Result
		gold    []string
		want    rankingScore
	}{
		{"first", ranking("a", "b"), []string{"a"}, rankingScore{1, 1, 1, 1}},
		{"third", ranking("x", "y", "a"), []string{"a"}, rankingScore{0, 1, 1.0 / 3, 1}},
		{"missing", ranking("x", "y"), []string{"a"}, rankingScore{}},
		{"half of two gold", ranking("b", "x"), []string{"a", "b"}, rankingScore{0.5, 0.5, 1, 1}},
		{"both gold", ranking("x", "b", "a"), []string{"a", "b"}, rankingScore{0, 1, 0.5, 1}},
		{"past the cut-off", ranking("1", "2", "3", "4", "5", "a"), []string{"a"}, rankingScore{}},
		{"nothing found", nil, []string{"a"}, rankingScore{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scoreRanking(tt.results, tt.gold); got != tt.want {
				t.Errorf("scoreRanking = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Microsecond)
	}
	tests := []struct {
		sorted []time.Duration
		p      float64
		want   float64
	}{
		{d, 0.50, 50}, {d, 0.99, 99}, {d, 1, 100}, {d[:1], 0.99, 1}, {d[:3], 0.5, 2}, {nil, 0.5, 0},
	}
	for _, tt := range tests {
		if got := percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("percentile(%d samples, %v) = %v, want %v", len(tt.sorted), tt.p, got, tt.want)
		}
	}
}

// TestDevSetQuality evaluates search on the development set
// (testdata/devset) against the quality targets.
func TestDevSetQuality(t *testing.T) {
	const dir = "../../testdata/devset/"
	docs, err := readToolsFile(dir + "tools.jsonl")
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
	t.Logf("recall@1 %.3f recall@5 %.3f MRR@5 %.3f hit@5 %.3f", r.RecallAt1, r.RecallAt5, r.MRRAt5, r.HitAt5)
	if r.RecallAt5 < 0.80 || r.HitAt5 < 0.83 {
		t.Errorf("recall@5 %.3f, hit@5 %.3f; want at least 0.80 and 0.83", r.RecallAt5, r.HitAt5)
	}
}

// TestSearchCommandHybrid ranks and evaluates with --embeddings on a local
// server of the embeddings API that runs a real model: a request that
// shares no word with any tool finds none lexically and its tool first
// through the model.
func TestSearchCommandHybrid(t *testing.T) {
	url := embedserver.Start(t)
	tools := writeFile(t, "tools.jsonl", testTools)
	const query = "will it rain in Paris tomorrow"
	var stdout, stderr bytes.Buffer
	if code := runSearch([]string{"--tools", tools, query}, &stdout, &stderr); code != 0 || stdout.String() != `No available tool matches the query "`+query+`".`+"\n" {
		t.Fatalf("lexical: exit %d, stdout %q, stderr %q; want no tool found", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	args := []string{"--tools", tools, "--embeddings", url, "--embeddings-model", embedserver.Model, "--embed-cache", t.TempDir()}
	if code := runSearch(append(args, query), &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "1.  weather.forecast") {
		t.Fatalf("hybrid: exit %d, stdout %q, stderr %q; want weather.forecast first", code, stdout.String(), stderr.String())
	}
	queries := writeFile(t, "queries.jsonl", `{"query": "`+query+`", "gold": ["weather.forecast"]}
{"query": "mail my boss", "gold": ["email.send"]}
`)
	stdout.Reset()
	if code := runSearch(append(args, "--queries", queries, "--json"), &stdout, &stderr); code != 0 {
		t.Fatalf("hybrid evaluation: exit %d, stderr %q", code, stderr.String())
	}
	got := decodeHybridReport(t, stdout.Bytes())
	if got.Queries != 2 || got.RecallAt1 != 1 || got.P50US <= 0 || *got.Hybrid != got.evalMetrics {
		t.Errorf("hybrid evaluation %+v: want 2 queries, each gold tool first, and a latency", got)
	}
	// The vectors are on disk: a second run embeds nothing.
	stdout.Reset()
	if code := runSearch(append(args, "--queries", queries, "--json"), &stdout, &stderr); code != 0 {
		t.Fatalf("second hybrid evaluation: exit %d, stderr %q", code, stderr.String())
	}
	if again := decodeHybridReport(t, stdout.Bytes()); again.Embedding.Embedded != 0 || again.Embedding.Cached != 4 || again.RecallAt1 != 1 {
		t.Errorf("second run %+v: want nothing embedded, 4 vectors cached, the same ranking", again.Embedding)
	}
}
