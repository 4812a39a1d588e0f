package toolsearch

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// DefaultEmbedBatch is the number of texts an [EmbeddingCache] sends to its
// embedder in one call unless [WithEmbedBatch] says otherwise: small enough
// that a model on a CPU answers one call in seconds, so a slow server costs a
// retry of one batch, not of the catalog.
const DefaultEmbedBatch = 64

// DefaultEmbedAttempts is the number of times an [EmbeddingCache] calls its
// embedder for one batch before it gives up, unless [WithEmbedRetries] says
// otherwise.
const DefaultEmbedAttempts = 4

// defaultEmbedBackoff is the wait before the second attempt at a batch; it
// doubles at each further attempt.
const defaultEmbedBackoff = time.Second

// EmbeddingCache keeps the vectors one [Embedder] made for tools, by schema
// fingerprint, so that a catalog is embedded once however often its index is
// rebuilt (a registry catalog read at every planning step). It embeds the
// texts it lacks in batches, retries a failed batch alone with backoff
// (batches already embedded are kept), reports progress, and with a
// [VectorStore] keeps the vectors across processes. It is safe for
// concurrent use; it never forgets a vector, so one cache serves catalogs
// whose tools it can hold.
type EmbeddingCache struct {
	embedder Embedder
	cfg      embedConfig
	mu       sync.Mutex
	vectors  map[string][]float32 // unit vectors by fingerprint
	dim      int
	embedded int // texts the embedder embedded
	loaded   int // vectors read from the store
}

// EmbeddingCacheOption configures an [EmbeddingCache].
type EmbeddingCacheOption func(*embedConfig)

type embedConfig struct {
	batch    int
	attempts int
	backoff  time.Duration
	progress func(done, total int)
	store    VectorStore
}

// WithEmbedBatch sends at most n texts to the embedder in one call
// ([DefaultEmbedBatch] when n <= 0).
func WithEmbedBatch(n int) EmbeddingCacheOption {
	return func(c *embedConfig) {
		if n > 0 {
			c.batch = n
		}
	}
}

// WithEmbedRetries calls the embedder at most attempts times for one batch
// (at least once), waiting backoff before the second attempt and twice as
// long before each next one.
func WithEmbedRetries(attempts int, backoff time.Duration) EmbeddingCacheOption {
	return func(c *embedConfig) { c.attempts, c.backoff = max(attempts, 1), max(backoff, 0) }
}

// WithEmbedProgress calls progress after each batch a catalog build embeds,
// with the texts embedded so far and those the build must embed; it is not
// called when the build embeds nothing.
func WithEmbedProgress(progress func(done, total int)) EmbeddingCacheOption {
	return func(c *embedConfig) { c.progress = progress }
}

// WithVectorStore reads the vectors the cache lacks from store before
// embedding, and writes there every batch it embeds, so that a catalog is
// embedded once across processes and an interrupted build resumes.
func WithVectorStore(store VectorStore) EmbeddingCacheOption {
	return func(c *embedConfig) { c.store = store }
}

// NewEmbeddingCache returns an empty cache for the vectors of e.
func NewEmbeddingCache(e Embedder, opts ...EmbeddingCacheOption) *EmbeddingCache {
	cfg := embedConfig{batch: DefaultEmbedBatch, attempts: DefaultEmbedAttempts, backoff: defaultEmbedBackoff}
	for _, o := range opts {
		o(&cfg)
	}
	return &EmbeddingCache{embedder: e, cfg: cfg, vectors: make(map[string][]float32)}
}

// Len returns the number of vectors the cache holds.
func (c *EmbeddingCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.vectors)
}

// Embedded returns the number of texts the cache's embedder has embedded, and
// the number of vectors read from its store.
func (c *EmbeddingCache) Embedded() (embedded, loaded int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.embedded, c.loaded
}

// toolVectors returns the unit vector of every tool: held by the cache, read
// from its store, or embedded batch by batch.
func (c *EmbeddingCache) toolVectors(ctx context.Context, tools []EmbeddingTool) ([][]float32, error) {
	var missing []string // fingerprints, each once
	var texts []string
	seen := make(map[string]bool)
	c.mu.Lock()
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
	missing, texts, err := c.load(missing, texts)
	if err != nil {
		return nil, err
	}
	// Embedding runs unlocked: concurrent builds of one catalog may both
	// embed it, and keep the same vectors.
	for start := 0; start < len(texts); start += c.cfg.batch {
		end := min(start+c.cfg.batch, len(texts))
		vecs, err := c.embedBatch(ctx, texts[start:end], start, len(texts))
		if err != nil {
			return nil, err
		}
		if err := c.keep(missing[start:end], vecs); err != nil {
			return nil, err
		}
		if c.cfg.store != nil {
			for i, fp := range missing[start:end] {
				if err := c.cfg.store.Store(fp, vecs[i]); err != nil {
					return nil, fmt.Errorf("%w: storing vector of tool %q: %w", ErrEmbedding, fp, err)
				}
			}
		}
		if c.cfg.progress != nil {
			c.cfg.progress(end, len(texts))
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]float32, len(tools))
	for i, t := range tools {
		out[i] = c.vectors[t.Fingerprint]
	}
	return out, nil
}

// load takes the vectors of missing fingerprints from the store into the
// cache, and returns the fingerprints and texts still to embed.
func (c *EmbeddingCache) load(missing, texts []string) ([]string, []string, error) {
	if c.cfg.store == nil {
		return missing, texts, nil
	}
	var restFP, restText []string
	for i, fp := range missing {
		v, ok, err := c.cfg.store.Load(fp)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrEmbedding, err)
		}
		if !ok {
			restFP, restText = append(restFP, fp), append(restText, texts[i])
			continue
		}
		if !normalize(v) {
			return nil, nil, fmt.Errorf("%w: stored vector of %q is zero or not finite", ErrEmbedding, fp)
		}
		if err := c.keep([]string{fp}, [][]float32{v}); err != nil {
			return nil, nil, err
		}
		c.mu.Lock()
		c.loaded++
		c.mu.Unlock()
	}
	return restFP, restText, nil
}

// keep adds vectors to the cache under their fingerprints, all of the
// cache's dimension.
func (c *EmbeddingCache) keep(fps []string, vecs [][]float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dim == 0 {
		c.dim = len(vecs[0])
	}
	for i, v := range vecs {
		if len(v) != c.dim {
			return fmt.Errorf("%w: vector of %q has dimension %d, want %d", ErrEmbedding, fps[i], len(v), c.dim)
		}
		c.vectors[fps[i]] = v
	}
	return nil
}

// embedBatch embeds one batch, texts first+1 to first+len(texts) of total,
// calling the embedder up to the cache's attempts with backoff between
// them. Only a failed call is retried: vectors that are wrong fail at once.
func (c *EmbeddingCache) embedBatch(ctx context.Context, texts []string, first, total int) ([][]float32, error) {
	wait := c.cfg.backoff
	for attempt := 1; ; attempt++ {
		vecs, err := c.embedder.Embed(ctx, texts)
		if err == nil {
			c.mu.Lock()
			c.embedded += len(texts)
			c.mu.Unlock()
			return c.unitVectors(vecs, len(texts))
		}
		if attempt >= c.cfg.attempts || ctx.Err() != nil {
			return nil, fmt.Errorf("%w: texts %d-%d of %d, attempt %d of %d: %w",
				ErrEmbedding, first+1, first+len(texts), total, attempt, c.cfg.attempts, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w: texts %d-%d of %d, waiting to retry: %w (after %w)",
				ErrEmbedding, first+1, first+len(texts), total, ctx.Err(), err)
		case <-t.C:
		}
		wait *= 2
	}
}

// unitVectors checks that vecs are n vectors of one dimension (that of the
// cache when it holds any) and returns them scaled to unit length, copied
// from the embedder's.
func (c *EmbeddingCache) unitVectors(vecs [][]float32, n int) ([][]float32, error) {
	if len(vecs) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbedding, len(vecs), n)
	}
	c.mu.Lock()
	dim := c.dim
	c.mu.Unlock()
	if dim == 0 && n > 0 {
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
