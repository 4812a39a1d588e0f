package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch/openaiembed"
)

// searcher ranks the catalog for one query: the lexical index alone, or the
// hybrid index that fuses it with embeddings.
type searcher func(ctx context.Context, dst []toolsearch.Result, query string, limit int) ([]toolsearch.Result, error)

// lexicalSearcher searches ix alone.
func lexicalSearcher(ix *toolsearch.Index) searcher {
	return func(_ context.Context, dst []toolsearch.Result, query string, limit int) ([]toolsearch.Result, error) {
		return ix.AppendSearch(dst, query, limit), nil
	}
}

// embeddingReport says how a hybrid search's catalog was embedded and how
// much the fusion trusts the embedder.
type embeddingReport struct {
	Model string `json:"model"`
	// Embedded is the number of tool texts the server embedded; Cached the
	// number of vectors read from the on-disk cache.
	Embedded int     `json:"embedded"`
	Cached   int     `json:"cached"`
	EmbedMS  float64 `json:"embed_ms"`
	// Agreement is the embedder's agreement with the lexical ranking on the
	// catalog (-1 when the catalog is too small to measure it), Weight the
	// share of its ranking in the fusion (0 to 1, lexical's being 1).
	Agreement float64 `json:"agreement"`
	Weight    float64 `json:"weight"`
}

// fusion says how far the embedder agrees with the lexical ranking and the
// weight it is fused at.
func (r embeddingReport) fusion() string {
	if r.Agreement < 0 {
		return fmt.Sprintf("agreement with lexical not measured (catalog too small), fusion weight %.3f", r.Weight)
	}
	return fmt.Sprintf("agreement with lexical %.3f, fusion weight %.3f", r.Agreement, r.Weight)
}

// embedCacheDir is the default directory of --embed-cache.
func embedCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("--embed-cache: no user cache directory (%w); give --embed-cache DIR", err)
	}
	return filepath.Join(dir, "goa-discovery", "embeddings"), nil
}

// hybridSearcher embeds the catalog with the OpenAI embeddings API at
// f.embeddings (its key, if it needs one, in OPENAI_API_KEY), batch by batch
// with progress on stderr and vectors kept under f.embedCache, and searches
// ix fused with the vectors.
func hybridSearcher(ctx context.Context, ix *toolsearch.Index, docs []toolsearch.Document, f searchFlags, stderr io.Writer) (searcher, embeddingReport, error) {
	report := embeddingReport{Model: f.embedModel}
	url := f.embeddings
	dir := f.embedCache
	if dir == "" {
		var err error
		if dir, err = embedCacheDir(); err != nil {
			return nil, report, err
		}
	}
	store, err := toolsearch.NewDirVectorStore(dir, url+"\x00"+f.embedModel)
	if err != nil {
		return nil, report, fmt.Errorf("--embed-cache %s: %w", dir, err)
	}
	// The cache retries a failed batch itself, keeping the batches done;
	// the SDK retrying the same request underneath would only multiply the
	// wait.
	embedder := openaiembed.New(openaiembed.WithBaseURL(url), openaiembed.WithModel(f.embedModel),
		openaiembed.WithRequestOptions(option.WithMaxRetries(0)))
	progress := func(done, total int) {
		fmt.Fprintf(stderr, "embedding tools: %d/%d\n", done, total)
	}
	cache := toolsearch.NewEmbeddingCache(embedder, toolsearch.WithEmbedBatch(f.embedBatch),
		toolsearch.WithEmbedRetries(f.embedRetries, time.Second), toolsearch.WithEmbedProgress(progress),
		toolsearch.WithVectorStore(store))
	tools := make([]toolsearch.EmbeddingTool, len(docs))
	for i, d := range docs {
		text := toolsearch.EmbeddingText(d)
		// The cache keys vectors by fingerprint, which must stand for one
		// text: a catalog file has no schema fingerprints, so the text's
		// own hash is the key.
		sum := sha256.Sum256([]byte(text))
		tools[i] = toolsearch.EmbeddingTool{Name: d.Name, Fingerprint: hex.EncodeToString(sum[:]), Text: text}
	}
	start := time.Now()
	h, err := toolsearch.NewHybridIndex(ctx, ix, cache, tools)
	if err != nil {
		return nil, report, fmt.Errorf("--embeddings %s: %w", url, err)
	}
	report.EmbedMS = float64(time.Since(start).Microseconds()) / 1000
	report.Embedded, report.Cached = cache.Embedded()
	report.Agreement, report.Weight = h.Agreement(), h.Weight()
	fmt.Fprintf(stderr, "embeddings: %d tools embedded, %d from %s; %s\n",
		report.Embedded, report.Cached, store.Dir(), report.fusion())
	return func(ctx context.Context, dst []toolsearch.Result, query string, limit int) ([]toolsearch.Result, error) {
		results, err := h.Search(ctx, query, limit)
		if err != nil {
			return dst, fmt.Errorf("--embeddings %s: %w", url, err)
		}
		return append(dst, results...), nil
	}, report, nil
}
