package openaiembed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch/openaiembed"
)

// embeddingsServerDouble is a local stand-in for the OpenAI embeddings
// endpoint, on 127.0.0.1: it records each request and answers with the
// vector vector(text) of every input, in reverse order of index so that the
// client must place them by index. respond, when set, answers instead.
type embeddingsServerDouble struct {
	*httptest.Server
	mu       sync.Mutex
	requests []embeddingsRequest
	auth     []string
	respond  func(w http.ResponseWriter, req embeddingsRequest)
}

type embeddingsRequest struct {
	Input          []string `json:"input"`
	Model          string   `json:"model"`
	Dimensions     int64    `json:"dimensions"`
	EncodingFormat string   `json:"encoding_format"`
}

// vector is the double's embedding of text: its length, and whether it
// mentions money.
func vector(text string) []float64 {
	money := 0.0
	if strings.Contains(text, "currenc") || strings.Contains(text, "yen") {
		money = 1
	}
	return []float64{money, 0.01 * float64(len(text)), 0.5}
}

func newEmbeddingsServerDouble(t *testing.T) *embeddingsServerDouble {
	s := &embeddingsServerDouble{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/embeddings" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		var req embeddingsRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		respond := s.respond
		s.mu.Unlock()
		if respond != nil {
			respond(w, req)
			return
		}
		type datum struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		data := make([]datum, 0, len(req.Input))
		for i := len(req.Input) - 1; i >= 0; i-- {
			data = append(data, datum{"embedding", i, vector(req.Input[i])})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
	t.Cleanup(s.Close)
	return s
}

func newEmbedder(s *embeddingsServerDouble, opts ...openaiembed.Option) *openaiembed.Embedder {
	opts = append([]openaiembed.Option{openaiembed.WithBaseURL(s.URL), openaiembed.WithAPIKey("test-key"),
		openaiembed.WithRequestOptions(option.WithMaxRetries(0))}, opts...)
	return openaiembed.New(opts...)
}

func TestEmbed(t *testing.T) {
	s := newEmbeddingsServerDouble(t)
	e := newEmbedder(s, openaiembed.WithModel("text-embedding-3-large"), openaiembed.WithDimensions(3))
	texts := []string{"convert currencies", "weather", "yen"}
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := vector(text)
		if len(got[i]) != len(want) {
			t.Fatalf("vector %d = %v, want %v", i, got[i], want)
		}
		for j := range want {
			if got[i][j] != float32(want[j]) {
				t.Errorf("vector %d = %v, want %v (in input order)", i, got[i], want)
				break
			}
		}
	}
	if len(s.requests) != 1 {
		t.Fatalf("%d requests, want 1", len(s.requests))
	}
	req := s.requests[0]
	if req.Model != "text-embedding-3-large" || req.Dimensions != 3 || req.EncodingFormat != "float" || fmt.Sprint(req.Input) != fmt.Sprint(texts) {
		t.Errorf("request %+v", req)
	}
	if s.auth[0] != "Bearer test-key" {
		t.Errorf("Authorization %q", s.auth[0])
	}
}

func TestEmbedBatches(t *testing.T) {
	s := newEmbeddingsServerDouble(t)
	e := newEmbedder(s)
	texts := make([]string, 2049)
	for i := range texts {
		texts[i] = fmt.Sprintf("tool %d", i)
	}
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(texts) || got[2048][1] != float32(vector(texts[2048])[1]) {
		t.Errorf("got %d vectors, last %v", len(got), got[len(got)-1])
	}
	if len(s.requests) != 2 || len(s.requests[0].Input) != 2048 || len(s.requests[1].Input) != 1 {
		t.Errorf("requests of %d inputs, want 2048 then 1", len(s.requests))
	}
	if s.requests[0].Model != string(openaiembed.DefaultModel) || s.requests[0].Dimensions != 0 {
		t.Errorf("default request %+v", s.requests[0])
	}
}

func TestEmbedErrors(t *testing.T) {
	tests := []struct {
		name    string
		respond func(w http.ResponseWriter, req embeddingsRequest)
		want    string
	}{
		{"server error", func(w http.ResponseWriter, _ embeddingsRequest) {
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
		}, "500"},
		{"too few vectors", func(w http.ResponseWriter, _ embeddingsRequest) {
			fmt.Fprint(w, `{"object":"list","data":[{"index":0,"embedding":[1]}]}`)
		}, "1 vectors for 2 texts"},
		{"repeated index", func(w http.ResponseWriter, _ embeddingsRequest) {
			fmt.Fprint(w, `{"object":"list","data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`)
		}, "out of range or repeated"},
		{"index out of range", func(w http.ResponseWriter, _ embeddingsRequest) {
			fmt.Fprint(w, `{"object":"list","data":[{"index":0,"embedding":[1]},{"index":5,"embedding":[1]}]}`)
		}, "out of range or repeated"},
		{"empty vector", func(w http.ResponseWriter, _ embeddingsRequest) {
			fmt.Fprint(w, `{"object":"list","data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[]}]}`)
		}, "empty vector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newEmbeddingsServerDouble(t)
			s.respond = func(w http.ResponseWriter, req embeddingsRequest) {
				w.Header().Set("Content-Type", "application/json")
				tt.respond(w, req)
			}
			_, err := newEmbedder(s).Embed(context.Background(), []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Embed error = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestHybridIndexOnEmbeddings fuses the lexical ranking with vectors from
// the embeddings API (the local double): the catalog is embedded in one
// request however often the index is rebuilt, and each search embeds its
// query.
func TestHybridIndexOnEmbeddings(t *testing.T) {
	s := newEmbeddingsServerDouble(t)
	docs := []toolsearch.Document{
		{Name: "convert_currency", Description: "Convert an amount between currencies."},
		{Name: "weather_forecast", Description: "Get the weather forecast for a city."},
		{Name: "send_email", Description: "Send an email message."},
	}
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		t.Fatal(err)
	}
	tools := make([]toolsearch.EmbeddingTool, len(docs))
	for i, d := range docs {
		tools[i] = toolsearch.EmbeddingTool{Name: d.Name, Fingerprint: "fp-" + d.Name, Text: toolsearch.EmbeddingText(d)}
	}
	cache := toolsearch.NewEmbeddingCache(newEmbedder(s))
	var h *toolsearch.HybridIndex
	for range 2 {
		if h, err = toolsearch.NewHybridIndex(context.Background(), ix, cache, tools); err != nil {
			t.Fatal(err)
		}
	}
	got, err := h.Search(context.Background(), "how many yen", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Name != "convert_currency" {
		t.Errorf("Search(how many yen) = %+v, want convert_currency first", got)
	}
	if len(s.requests) != 2 || len(s.requests[0].Input) != 3 || fmt.Sprint(s.requests[1].Input) != "[how many yen]" {
		t.Errorf("requests %+v, want the catalog once, then the query", s.requests)
	}
}
