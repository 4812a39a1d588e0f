package toolsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// Embedder turns texts into vectors whose cosine similarity says how close
// their meanings are. It is what [HybridIndex] fuses with the lexical
// ranking; runtime/toolsearch/openaiembed implements it on the OpenAI
// embeddings API.
type Embedder interface {
	// Embed returns one vector per text, in the order of texts, all of one
	// dimension.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ErrEmbedding is wrapped by every error of an [Embedder] call or of the
// vectors it returned (a wrong count, a dimension that differs, a zero
// vector).
var ErrEmbedding = errors.New("embedding failed")

// EmbeddingTool is a tool as an embedder sees it.
type EmbeddingTool struct {
	// Name is the tool's catalog name, as in the lexical index.
	Name string
	// Fingerprint is the fingerprint of the tool's schema
	// (tools.SchemaFingerprint); a tool's vector is cached under it, so two
	// tools with one fingerprint must have one text. Required.
	Fingerprint string
	// Text is what is embedded: [EmbeddingText] of the tool's document.
	Text string
}

// EmbeddingText is the text embedded for a tool: its name, title and
// description, one a line, without the empty ones.
func EmbeddingText(doc Document) string {
	var b strings.Builder
	for _, s := range [...]string{doc.Name, doc.Title, doc.Description} {
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// EmbeddingCache keeps the vectors one [Embedder] made for tools, by schema
// fingerprint, so that a catalog is embedded once however often its index is
// rebuilt (a registry catalog read at every planning step). It is safe for
// concurrent use; it never forgets a vector, so one cache serves catalogs
// whose tools it can hold.
type EmbeddingCache struct {
	embedder Embedder
	mu       sync.Mutex
	vectors  map[string][]float32 // unit vectors by fingerprint
	dim      int
}

// NewEmbeddingCache returns an empty cache for the vectors of e.
func NewEmbeddingCache(e Embedder) *EmbeddingCache {
	return &EmbeddingCache{embedder: e, vectors: make(map[string][]float32)}
}

// Len returns the number of vectors the cache holds.
func (c *EmbeddingCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.vectors)
}

// toolVectors returns the unit vector of every tool, embedding in one call
// the texts of the fingerprints the cache does not hold yet.
func (c *EmbeddingCache) toolVectors(ctx context.Context, tools []EmbeddingTool) ([][]float32, error) {
	c.mu.Lock()
	var missing []string // fingerprints, each once
	var texts []string
	seen := make(map[string]bool)
	for i, t := range tools {
		if t.Fingerprint == "" {
			c.mu.Unlock()
			return nil, fmt.Errorf("%w: tool %d (%q): empty fingerprint", ErrInvalidDocument, i, t.Name)
		}
		if _, ok := c.vectors[t.Fingerprint]; !ok && !seen[t.Fingerprint] {
			seen[t.Fingerprint] = true
			missing = append(missing, t.Fingerprint)
			texts = append(texts, t.Text)
		}
	}
	c.mu.Unlock()
	if len(texts) > 0 {
		// Embedding runs unlocked: concurrent builds of one catalog may
		// both embed it, and keep the same vectors.
		vecs, err := c.embed(ctx, texts)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.dim == 0 {
			c.dim = len(vecs[0])
		}
		if len(vecs[0]) != c.dim {
			c.mu.Unlock()
			return nil, fmt.Errorf("%w: vectors of dimension %d, want %d", ErrEmbedding, len(vecs[0]), c.dim)
		}
		for i, fp := range missing {
			c.vectors[fp] = vecs[i]
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]float32, len(tools))
	for i, t := range tools {
		out[i] = c.vectors[t.Fingerprint]
	}
	return out, nil
}

// embed embeds texts into unit vectors of one dimension (that of the cache
// when it holds any), copied from the embedder's.
func (c *EmbeddingCache) embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := c.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEmbedding, err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbedding, len(vecs), len(texts))
	}
	c.mu.Lock()
	dim := c.dim
	c.mu.Unlock()
	if dim == 0 {
		dim = len(vecs[0])
	}
	out := make([][]float32, len(vecs))
	for i, v := range vecs {
		if len(v) != dim || dim == 0 {
			return nil, fmt.Errorf("%w: vector %d has dimension %d, want %d", ErrEmbedding, i, len(v), dim)
		}
		out[i] = slices.Clone(v)
		if !normalize(out[i]) {
			return nil, fmt.Errorf("%w: vector %d is zero or not finite", ErrEmbedding, i)
		}
	}
	return out, nil
}

// normalize scales v to unit length in place and reports whether it could:
// v is neither zero nor has a component that is not finite.
func normalize(v []float32) bool {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsInf(sum, 0) || math.IsNaN(sum) {
		return false
	}
	scale := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= scale
	}
	return true
}
