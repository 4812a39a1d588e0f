package toolsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// numberedCatalog returns n tools with distinct texts.
func numberedCatalog(n int) []Document {
	docs := make([]Document, n)
	for i := range docs {
		docs[i] = Document{Name: fmt.Sprintf("tool_%02d", i), Description: fmt.Sprintf("Send an email message number %d", i)}
	}
	return docs
}

// flakyEmbedderDouble is a test embedder that fails the calls whose numbers
// (from 1) fail lists, and embeds the others with conceptEmbedderDouble.
type flakyEmbedderDouble struct {
	conceptEmbedderDouble
	fail  func(call int) bool
	sizes []int
}

func (e *flakyEmbedderDouble) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.sizes = append(e.sizes, len(texts))
	if e.fail(len(e.sizes)) {
		return nil, errors.New("server timed out")
	}
	return e.conceptEmbedderDouble.Embed(ctx, texts)
}

// TestEmbeddingCacheBatches: a catalog is embedded in batches of the size
// asked, with progress after each.
func TestEmbeddingCacheBatches(t *testing.T) {
	docs := numberedCatalog(10)
	for _, tt := range []struct {
		batch     int
		sizes     []int
		progresss []int
	}{
		{3, []int{3, 3, 3, 1}, []int{3, 6, 9, 10}},
		{10, []int{10}, []int{10}},
		{0, []int{10}, []int{10}}, // the default, 64
	} {
		t.Run(fmt.Sprint(tt.batch), func(t *testing.T) {
			e := &flakyEmbedderDouble{fail: func(int) bool { return false }}
			var progress []int
			cache := NewEmbeddingCache(e, WithEmbedBatch(tt.batch), WithEmbedProgress(func(done, total int) {
				if total != len(docs) {
					t.Errorf("progress total %d, want %d", total, len(docs))
				}
				progress = append(progress, done)
			}))
			mustHybrid(t, docs, cache)
			if !slices.Equal(e.sizes, tt.sizes) || !slices.Equal(progress, tt.progresss) {
				t.Errorf("batches %v, progress %v; want %v and %v", e.sizes, progress, tt.sizes, tt.progresss)
			}
		})
	}
}

// TestEmbeddingCacheRetriesFailedBatch: a failed batch alone is retried;
// after the bound the error names the batch, and the batches embedded before
// it are kept, so the next build embeds only the rest.
func TestEmbeddingCacheRetriesFailedBatch(t *testing.T) {
	docs := numberedCatalog(10)
	ctx := context.Background()
	t.Run("recovers", func(t *testing.T) {
		e := &flakyEmbedderDouble{fail: func(call int) bool { return call == 2 || call == 3 }}
		cache := NewEmbeddingCache(e, WithEmbedBatch(4), WithEmbedRetries(3, time.Millisecond))
		mustHybrid(t, docs, cache)
		if want := []int{4, 4, 4, 4, 2}; !slices.Equal(e.sizes, want) {
			t.Errorf("calls of sizes %v, want %v", e.sizes, want)
		}
		if embedded, _ := cache.Embedded(); embedded != 10 {
			t.Errorf("embedded %d texts, want 10", embedded)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		e := &flakyEmbedderDouble{fail: func(call int) bool { return call >= 2 && call <= 4 }}
		cache := NewEmbeddingCache(e, WithEmbedBatch(4), WithEmbedRetries(3, time.Millisecond))
		_, err := NewHybridIndex(ctx, mustIndex(t, docs), cache, embeddingTools(docs))
		if !errors.Is(err, ErrEmbedding) || !strings.Contains(err.Error(), "texts 5-8 of 10, attempt 3 of 3: server timed out") {
			t.Fatalf("error %v, want the batch and attempts named", err)
		}
		if cache.Len() != 4 {
			t.Errorf("the cache holds %d vectors after the failure, want the first batch's 4", cache.Len())
		}
		mustHybrid(t, docs, cache)
		if want := []int{4, 4, 4, 4, 4, 2}; !slices.Equal(e.sizes, want) {
			t.Errorf("calls of sizes %v, want %v: the second build embeds the 6 texts left", e.sizes, want)
		}
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		e := &flakyEmbedderDouble{fail: func(int) bool { return true }}
		ctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		cache := NewEmbeddingCache(e, WithEmbedRetries(5, time.Hour))
		_, err := NewHybridIndex(ctx, mustIndex(t, docs), cache, embeddingTools(docs))
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrEmbedding) || len(e.sizes) != 1 {
			t.Fatalf("error %v after %d calls, want the deadline after one", err, len(e.sizes))
		}
	})
}

// TestDirVectorStoreSecondBuildEmbedsNothing: vectors stored on disk by one
// cache serve another (a second process) without a call of its embedder;
// another model's store holds none of them; a damaged file is refused by
// name.
func TestDirVectorStoreSecondBuildEmbedsNothing(t *testing.T) {
	docs := numberedCatalog(10)
	dir := t.TempDir()
	build := func(model string) (*flakyEmbedderDouble, *EmbeddingCache, *HybridIndex) {
		store, err := NewDirVectorStore(dir, model)
		if err != nil {
			t.Fatal(err)
		}
		e := &flakyEmbedderDouble{fail: func(int) bool { return false }}
		cache := NewEmbeddingCache(e, WithEmbedBatch(4), WithVectorStore(store))
		return e, cache, mustHybrid(t, docs, cache)
	}
	e1, _, h1 := build("model-a")
	if len(e1.sizes) != 3 {
		t.Fatalf("first build made %d calls, want 3", len(e1.sizes))
	}
	e2, cache2, h2 := build("model-a")
	if embedded, loaded := cache2.Embedded(); len(e2.sizes) != 0 || embedded != 0 || loaded != 10 {
		t.Errorf("second build: %d calls, %d embedded, %d loaded; want 0, 0, 10", len(e2.sizes), embedded, loaded)
	}
	if !slices.EqualFunc(h1.vectors, h2.vectors, slices.Equal[[]float32]) {
		t.Errorf("the stored vectors differ from those embedded")
	}
	if e3, _, _ := build("model-b"); len(e3.sizes) != 3 {
		t.Errorf("another model's build made %d calls, want 3", len(e3.sizes))
	}

	store, _ := NewDirVectorStore(dir, "model-a")
	files, _ := filepath.Glob(filepath.Join(store.Dir(), "*.vec"))
	if len(files) != 10 {
		t.Fatalf("%d vector files, want 10", len(files))
	}
	if err := os.WriteFile(files[0], []byte("GDV1\x02\x00\x00\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := &flakyEmbedderDouble{fail: func(int) bool { return false }}
	_, err := NewHybridIndex(context.Background(), mustIndex(t, docs), NewEmbeddingCache(e, WithVectorStore(store)), embeddingTools(docs))
	if !errors.Is(err, ErrEmbedding) || !strings.Contains(err.Error(), files[0]+" (fingerprint ") || !strings.Contains(err.Error(), "2 bytes of components for dimension 2") {
		t.Errorf("damaged vector file: error %v", err)
	}
}

// TestFusionWeight checks the gate and the ramp of the fusion weight.
func TestFusionWeight(t *testing.T) {
	for _, tt := range []struct{ agreement, want float64 }{
		{0, 0}, {0.341, 0}, {0.499, 0}, {0.5, 0}, {0.7, 0.5}, {0.9, 1}, {1, 1},
	} {
		if got := FusionWeight(tt.agreement); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("FusionWeight(%v) = %v, want %v", tt.agreement, got, tt.want)
		}
	}
}

// TestFusionWeightOption: a weight given is used as is, nothing measured;
// one outside 0 to 1 is refused.
func TestFusionWeightOption(t *testing.T) {
	docs, _ := loadDevSet(t)
	docs = docs[:40]
	ix := mustIndex(t, docs)
	cache := NewEmbeddingCache(&conceptEmbedderDouble{})
	h, err := NewHybridIndex(context.Background(), ix, cache, embeddingTools(docs), WithFusionWeight(0.25))
	if err != nil || h.Weight() != 0.25 || h.Agreement() != -1 {
		t.Errorf("WithFusionWeight(0.25): weight %v, agreement %v, error %v", h.Weight(), h.Agreement(), err)
	}
	if h, err := NewHybridIndex(context.Background(), ix, cache, embeddingTools(docs)); err != nil || h.Agreement() < 0 {
		t.Errorf("40 tools: agreement %v, error %v; want one measured", h.Agreement(), err)
	}
	for _, w := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := NewHybridIndex(context.Background(), ix, cache, embeddingTools(docs), WithFusionWeight(w)); !errors.Is(err, ErrInvalidDocument) || !strings.Contains(err.Error(), "is not between 0 and 1") {
			t.Errorf("WithFusionWeight(%v): error %v", w, err)
		}
	}
}

// FuzzDecodeVector: a vector file, outside input, decodes to a finite
// vector that encodes back to the same bytes, or is refused.
func FuzzDecodeVector(f *testing.F) {
	f.Add(encodeVector([]float32{1, -2.5, 0}))
	f.Add([]byte("GDV1\x00\x00\x00\x00"))
	f.Add([]byte("nope"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeVector(b)
		if err != nil {
			return
		}
		if got := encodeVector(v); string(got) != string(b) {
			t.Fatalf("decoded %v re-encodes to %x, not %x", v, got, b)
		}
	})
}
