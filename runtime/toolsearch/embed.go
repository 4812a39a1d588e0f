package toolsearch

import (
	"context"
	"errors"
	"math"
	"strings"
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
