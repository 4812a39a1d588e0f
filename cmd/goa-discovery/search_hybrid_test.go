package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// embeddingsServerDouble is a loopback test double of the OpenAI embeddings
// API: it answers each text with a vector counting its letters, fails the
// requests whose numbers (from 1) fail says, and records the size of every
// request.
type embeddingsServerDouble struct {
	mu    sync.Mutex
	sizes []int
	fail  func(request int) bool
}

func (s *embeddingsServerDouble) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || r.URL.Path != "/v1/embeddings" {
		http.Error(w, fmt.Sprintf("bad request %s: %v", r.URL.Path, err), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.sizes = append(s.sizes, len(req.Input))
	n := len(s.sizes)
	s.mu.Unlock()
	if s.fail != nil && s.fail(n) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error": {"message": "overloaded"}}`))
		return
	}
	type datum struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
		Object    string    `json:"object"`
	}
	data := make([]datum, len(req.Input))
	for i, text := range req.Input {
		v := make([]float64, 27)
		for _, c := range strings.ToLower(text) {
			if c >= 'a' && c <= 'z' {
				v[c-'a']++
			}
		}
		v[26] = 1
		data[i] = datum{Index: i, Embedding: v, Object: "embedding"}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "letters"})
}

func (s *embeddingsServerDouble) requests() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sizes)
}

// decodeHybridReport decodes search --json output made with --embeddings.
func decodeHybridReport(t *testing.T, b []byte) evalReport {
	t.Helper()
	var r evalReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("output %q: %v", b, err)
	}
	if r.Lexical == nil || r.Hybrid == nil || r.Embedding == nil {
		t.Fatalf("output %s: want lexical, hybrid and embedding", b)
	}
	return r
}

// TestSearchCommandEmbedsInBatchesOnce: --embed-batch sizes the requests,
// progress goes to stderr, a failed request is retried alone, and a second
// run on the same --embed-cache makes no embedding request for the catalog.
func TestSearchCommandEmbedsInBatchesOnce(t *testing.T) {
	double := &embeddingsServerDouble{fail: func(n int) bool { return n == 2 }}
	srv := httptest.NewServer(double)
	defer srv.Close()
	tools := writeFile(t, "tools.jsonl", testTools)
	queries := writeFile(t, "queries.jsonl", `{"query": "weather forecast for Paris", "gold": ["weather.forecast"]}
`)
	args := []string{"--tools", tools, "--queries", queries, "--json", "--embeddings", srv.URL + "/v1/",
		"--embeddings-model", "letters", "--embed-batch", "3", "--embed-cache", t.TempDir()}
	var stdout, stderr bytes.Buffer
	if code := runSearch(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	// Batches of 3 and 1 texts, the second sent twice, then the query,
	// scored and timed once.
	if got, want := double.requests(), []int{3, 1, 1, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("requests of sizes %v, want %v", got, want)
	}
	if !strings.Contains(stderr.String(), "embedding tools: 3/4\nembedding tools: 4/4\n") {
		t.Errorf("stderr %q: want progress after each batch", stderr.String())
	}
	first := decodeHybridReport(t, stdout.Bytes())
	if first.Embedding.Embedded != 4 || first.Embedding.Cached != 0 || first.Embedding.Model != "letters" {
		t.Errorf("first run %+v: want 4 texts embedded", first.Embedding)
	}
	// Four tools are too few to measure agreement on: equal weight.
	if first.Embedding.Agreement != -1 || first.Embedding.Weight != 1 || first.Lexical.RecallAt5 != 1 {
		t.Errorf("first run %+v, lexical %+v", first.Embedding, first.Lexical)
	}

	before := len(double.requests())
	stdout.Reset()
	stderr.Reset()
	if code := runSearch(args, &stdout, &stderr); code != 0 {
		t.Fatalf("second run: exit %d, stderr %q", code, stderr.String())
	}
	second := decodeHybridReport(t, stdout.Bytes())
	queryRequests := 0
	if second.Embedding.Weight > 0 {
		queryRequests = 2 // the query, scored and timed, embedded only when the embedder has a share
	}
	if got := double.requests()[before:]; len(got) != queryRequests || second.Embedding.Embedded != 0 || second.Embedding.Cached != 4 {
		t.Errorf("second run sent requests %v and reports %+v; want no catalog request, 4 vectors cached", got, second.Embedding)
	}
	if strings.Contains(stderr.String(), "embedding tools:") {
		t.Errorf("second run printed progress: %q", stderr.String())
	}
}
