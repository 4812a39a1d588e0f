package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

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

// hybridSearcher embeds the catalog with the OpenAI embeddings API at url
// (its key, if it needs one, in OPENAI_API_KEY) and searches ix fused with
// the vectors.
func hybridSearcher(ctx context.Context, ix *toolsearch.Index, docs []toolsearch.Document, url, model string) (searcher, error) {
	embedder := openaiembed.New(openaiembed.WithBaseURL(url), openaiembed.WithModel(model))
	tools := make([]toolsearch.EmbeddingTool, len(docs))
	for i, d := range docs {
		text := toolsearch.EmbeddingText(d)
		// The cache keys vectors by fingerprint, which must stand for one
		// text: a catalog file has no schema fingerprints, so the text's
		// own hash is the key.
		sum := sha256.Sum256([]byte(text))
		tools[i] = toolsearch.EmbeddingTool{Name: d.Name, Fingerprint: hex.EncodeToString(sum[:]), Text: text}
	}
	h, err := toolsearch.NewHybridIndex(ctx, ix, toolsearch.NewEmbeddingCache(embedder), tools)
	if err != nil {
		return nil, fmt.Errorf("--embeddings %s: %w", url, err)
	}
	return func(ctx context.Context, dst []toolsearch.Result, query string, limit int) ([]toolsearch.Result, error) {
		results, err := h.Search(ctx, query, limit)
		if err != nil {
			return dst, fmt.Errorf("--embeddings %s: %w", url, err)
		}
		return append(dst, results...), nil
	}, nil
}
