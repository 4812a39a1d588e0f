package toolsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
)

// conceptEmbedderDouble is the deterministic test embedder of the fusion
// tests: a text's vector counts, per concept, the words of the text that
// belong to it, so that texts sharing no word but a meaning ("yen" and
// "currencies") are close. It stands in for a model; it records its calls.
type conceptEmbedderDouble struct {
	mu    sync.Mutex
	calls [][]string
	fail  error
	// reply, when set, replaces the vectors of a call.
	reply func(texts []string) [][]float32
}

// concepts maps analyzed words to the dimension of their concept.
var concepts = map[string]int{
	"yen": 0, "dollar": 0, "euro": 0, "currenc": 0, "money": 0, "pric": 0,
	"weather": 1, "forecast": 1, "rain": 1, "sunny": 1, "temperatur": 1,
	"email": 2, "messag": 2, "mail": 2, "send": 2, "recipient": 2,
	"fil": 3, "directory": 3, "folder": 3, "path": 3,
	"imag": 4, "photo": 4, "pictur": 4, "thumbnail": 4, "resiz": 4,
}

const conceptDims = 6 // the last dimension holds every other word

func (e *conceptEmbedderDouble) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.calls = append(e.calls, slices.Clone(texts))
	e.mu.Unlock()
	if e.fail != nil {
		return nil, e.fail
	}
	if e.reply != nil {
		return e.reply(texts), nil
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, conceptDims)
		for _, term := range Terms(text) {
			if d, ok := concepts[term]; ok {
				v[d] += 1
			} else {
				v[conceptDims-1] += 0.1
			}
		}
		out[i] = v
	}
	return out, nil
}

func (e *conceptEmbedderDouble) embedded() (calls, texts int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.calls {
		texts += len(c)
	}
	return len(e.calls), texts
}

// embeddingTools returns the embedding view of docs, each fingerprinted by
// its name and text.
func embeddingTools(docs []Document) []EmbeddingTool {
	out := make([]EmbeddingTool, len(docs))
	for i, d := range docs {
		text := EmbeddingText(d)
		out[i] = EmbeddingTool{Name: d.Name, Fingerprint: fmt.Sprintf("fp-%s-%x", d.Name, len(text)), Text: text}
	}
	return out
}

func mustHybrid(t *testing.T, docs []Document, cache *EmbeddingCache) *HybridIndex {
	t.Helper()
	h, err := NewHybridIndex(context.Background(), mustIndex(t, docs), cache, embeddingTools(docs))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHybridSearch(t *testing.T) {
	h := mustHybrid(t, testCatalog(), NewEmbeddingCache(&conceptEmbedderDouble{}))
	tests := []struct {
		name  string
		query string
		want  []string // the top of the ranking, in order
	}{
		{"the vector finds what no word does", "how many yen is 20 dollars", []string{"convert_currency"}},
		{"both rankings agree", "weather forecast", []string{"weather.forecast"}},
		{"an exact name comes first", "files.list then a photo thumbnail", []string{"files.list", "image.resize"}},
		{"a one-word name alone is exact", "help", []string{"help"}},
		{"words and meaning together", "send a picture by mail", []string{"email.send", "image.resize"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.Search(context.Background(), tt.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if n := names(got); len(n) < len(tt.want) || !slices.Equal(n[:len(tt.want)], tt.want) {
				t.Errorf("Search(%q) = %q, want it to start with %q", tt.query, n, tt.want)
			}
		})
	}
	lexical := mustIndex(t, testCatalog()).Search("how many yen is 20 dollars", 5)
	if len(lexical) != 0 {
		t.Errorf("lexical Search(yen) = %q, want nothing: the test must need the vectors", names(lexical))
	}
}

// TestHybridFusedScores checks the reciprocal rank fusion arithmetic and
// the order of equal scores.
func TestHybridFusedScores(t *testing.T) {
	docs := []Document{
		{Name: "a", Description: "Send an email."},
		{Name: "b", Description: "Send a parcel."},
		{Name: "c", Description: "Resize a photo."},
	}
	// Vectors: the query is closest to c, then a, then b.
	e := &conceptEmbedderDouble{reply: func(texts []string) [][]float32 {
		out := make([][]float32, len(texts))
		for i, text := range texts {
			switch {
			case strings.HasPrefix(text, "a\n"):
				out[i] = []float32{0.8, 0.6}
			case strings.HasPrefix(text, "b\n"):
				out[i] = []float32{0, 1}
			case strings.HasPrefix(text, "c\n"):
				out[i] = []float32{1, 0}
			default: // the query
				out[i] = []float32{1, 0.1}
			}
		}
		return out
	}}
	h := mustHybrid(t, docs, NewEmbeddingCache(e))
	got, err := h.Search(context.Background(), "send", 3)
	if err != nil {
		t.Fatal(err)
	}
	// Lexical: a, b (tied, registration order). Dense: c, a, b.
	rrf := func(ranks ...int) float64 {
		s := 0.0
		for _, r := range ranks {
			s += 1 / float64(rrfK+r)
		}
		return s
	}
	want := []Result{
		{Name: "a", Score: rrf(1, 2), Fields: 1 << FieldDescription},
		{Name: "b", Score: rrf(2, 3), Fields: 1 << FieldDescription},
		{Name: "c", Score: rrf(1)},
	}
	if len(got) != len(want) {
		t.Fatalf("Search = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Name != want[i].Name || math.Abs(got[i].Score-want[i].Score) > 1e-12 || got[i].Fields != want[i].Fields || got[i].Exact {
			t.Errorf("result %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestEmbeddingCacheEmbedsOnce checks that a catalog is embedded once,
// however often its index is rebuilt, and that a changed tool alone is
// embedded again.
func TestEmbeddingCacheEmbedsOnce(t *testing.T) {
	e := &conceptEmbedderDouble{}
	cache := NewEmbeddingCache(e)
	docs := testCatalog()
	for range 3 {
		mustHybrid(t, docs, cache)
	}
	if calls, texts := e.embedded(); calls != 1 || texts != len(docs) {
		t.Errorf("three builds embedded %d texts in %d calls, want %d in 1", texts, calls, len(docs))
	}
	docs[2].Description = "Analyze customer records over a year."
	mustHybrid(t, docs, cache)
	if calls, texts := e.embedded(); calls != 2 || texts != len(docs)+1 {
		t.Errorf("after one change: %d texts in %d calls, want %d in 2", texts, calls, len(docs)+1)
	}
	if cache.Len() != len(docs)+1 {
		t.Errorf("cache holds %d vectors, want %d", cache.Len(), len(docs)+1)
	}
	h := mustHybrid(t, docs, cache)
	if _, err := h.Search(context.Background(), "   ", 5); err != nil {
		t.Fatal(err)
	}
	if calls, _ := e.embedded(); calls != 2 {
		t.Errorf("a blank query called the embedder")
	}
}

func TestHybridErrors(t *testing.T) {
	ctx := context.Background()
	docs := testCatalog()[:3]
	ix := mustIndex(t, docs)
	boom := errors.New("boom")
	vectors := func(vs ...[]float32) func([]string) [][]float32 {
		return func([]string) [][]float32 { return vs }
	}
	tests := []struct {
		name  string
		e     *conceptEmbedderDouble
		tools []EmbeddingTool
		want  error
	}{
		{"embedder fails", &conceptEmbedderDouble{fail: boom}, embeddingTools(docs), boom},
		{"too few vectors", &conceptEmbedderDouble{reply: vectors([]float32{1})}, embeddingTools(docs), ErrEmbedding},
		{"dimensions differ", &conceptEmbedderDouble{reply: vectors([]float32{1}, []float32{1, 0}, []float32{1})}, embeddingTools(docs), ErrEmbedding},
		{"zero vector", &conceptEmbedderDouble{reply: vectors([]float32{1}, []float32{0}, []float32{1})}, embeddingTools(docs), ErrEmbedding},
		{"not finite", &conceptEmbedderDouble{reply: vectors([]float32{1}, []float32{float32(math.Inf(1))}, []float32{1})}, embeddingTools(docs), ErrEmbedding},
		{"tools of another index", &conceptEmbedderDouble{}, embeddingTools(testCatalog()[1:4]), ErrInvalidDocument},
		{"too few tools", &conceptEmbedderDouble{}, embeddingTools(docs[:2]), ErrInvalidDocument},
		{"no fingerprint", &conceptEmbedderDouble{}, []EmbeddingTool{{Name: docs[0].Name}, {Name: docs[1].Name}, {Name: docs[2].Name}}, ErrInvalidDocument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewHybridIndex(ctx, ix, NewEmbeddingCache(tt.e, WithEmbedRetries(1, 0)), tt.tools)
			if !errors.Is(err, tt.want) {
				t.Errorf("NewHybridIndex error = %v, want %v", err, tt.want)
			}
		})
	}
	e := &conceptEmbedderDouble{}
	h, err := NewHybridIndex(ctx, ix, NewEmbeddingCache(e), embeddingTools(docs))
	if err != nil {
		t.Fatal(err)
	}
	e.fail = boom
	if _, err := h.Search(ctx, "records", 5); !errors.Is(err, boom) || !errors.Is(err, ErrEmbedding) {
		t.Errorf("Search with a failing embedder: error %v", err)
	}
	e.fail, e.reply = nil, vectors([]float32{1, 2})
	if _, err := h.Search(ctx, "records", 5); !errors.Is(err, ErrEmbedding) {
		t.Errorf("Search with a query vector of another dimension: error %v", err)
	}
}

func TestEmbeddingText(t *testing.T) {
	tests := []struct {
		doc  Document
		want string
	}{
		{Document{Name: "a"}, "a"},
		{Document{Name: "a", Description: "Do it."}, "a\nDo it."},
		{Document{Name: "a", Title: "A", Description: "Do it."}, "a\nA\nDo it."},
	}
	for _, tt := range tests {
		if got := EmbeddingText(tt.doc); got != tt.want {
			t.Errorf("EmbeddingText(%+v) = %q, want %q", tt.doc, got, tt.want)
		}
	}
}
