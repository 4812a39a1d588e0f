package toolsearch

import (
	"context"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// randomEmbedderDouble is a deliberately weak test embedder: a text's vector
// is pseudo-random, seeded by a hash of the text, so it carries no meaning.
type randomEmbedderDouble struct{}

func (randomEmbedderDouble) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		h := fnv.New64a()
		h.Write([]byte(text))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		v := make([]float32, 64)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		out[i] = v
	}
	return out, nil
}

// hashingEmbedderDouble is a weak test embedder that knows words but no
// meanings: a text's vector counts its analyzed words hashed into 128
// dimensions, so distinct words collide and synonyms stay apart.
type hashingEmbedderDouble struct{}

func (hashingEmbedderDouble) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, 128)
		for _, term := range Terms(text) {
			h := fnv.New32a()
			h.Write([]byte(term))
			v[h.Sum32()%128]++
		}
		v[0] += 0.01 // no text is a zero vector
		out[i] = v
	}
	return out, nil
}

// evalDevHybrid is evalDev through a hybrid index.
func evalDevHybrid(t *testing.T, h *HybridIndex, queries []devQuery) (all devMetrics, halves [2]devMetrics) {
	t.Helper()
	for _, q := range queries {
		results, err := h.Search(context.Background(), q.Query, 5)
		if err != nil {
			t.Fatal(err)
		}
		all.add(results, q.Gold)
		halves[devHalf(q.ID)].add(results, q.Gold)
	}
	return all, halves
}

// TestHybridWeakEmbedderNeverHurts fuses the dev set's lexical ranking with
// deliberately weak embedders: the weight derived from each one's agreement
// with the lexical ranking keeps hybrid recall@5 at least the lexical one on
// each half of the dev set, where fusing at equal weight loses on both.
func TestHybridWeakEmbedderNeverHurts(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds the dev set")
	}
	docs, queries := loadDevSet(t)
	ix := mustIndex(t, docs)
	_, lexHalves := evalDev(ix, queries)
	for _, tt := range []struct {
		name string
		e    Embedder
	}{
		{"random", randomEmbedderDouble{}},
		{"hashing", hashingEmbedderDouble{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cache := NewEmbeddingCache(tt.e, WithEmbedBatch(512))
			equal, err := NewHybridIndex(context.Background(), ix, cache, embeddingTools(docs), WithFusionWeight(1))
			if err != nil {
				t.Fatal(err)
			}
			_, equalHalves := evalDevHybrid(t, equal, queries)
			h, err := NewHybridIndex(context.Background(), ix, cache, embeddingTools(docs))
			if err != nil {
				t.Fatal(err)
			}
			_, halves := evalDevHybrid(t, h, queries)
			for i := range equalHalves {
				_, lex, _, _ := lexHalves[i].mean()
				_, eq, _, _ := equalHalves[i].mean()
				t.Logf("half %d: fused at equal weight, recall@5 %.3f", i, eq)
				if eq >= lex {
					t.Errorf("half %d: the embedder fused at equal weight gives recall@5 %.3f, not below lexical %.3f: the double is not weak", i, eq, lex)
				}
			}
			for i := range halves {
				_, lex, _, _ := lexHalves[i].mean()
				_, hyb, _, _ := halves[i].mean()
				t.Logf("half %d: agreement %.3f weight %.3f: lexical recall@5 %.3f, hybrid %.3f", i, h.Agreement(), h.Weight(), lex, hyb)
				if hyb < lex {
					t.Errorf("half %d: hybrid recall@5 %.3f below lexical %.3f (agreement %.3f, weight %.3f)", i, hyb, lex, h.Agreement(), h.Weight())
				}
			}
		})
	}
}
