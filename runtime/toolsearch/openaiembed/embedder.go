package openaiembed

import (
	"context"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// DefaultModel is the embedding model an Embedder uses unless told
// otherwise.
const DefaultModel = sdk.EmbeddingModelTextEmbedding3Small

// maxInputs is the most texts the API embeds in one request.
const maxInputs = 2048

// Embedder embeds texts with the OpenAI embeddings API. It is safe for
// concurrent use.
type Embedder struct {
	client     sdk.Client
	model      sdk.EmbeddingModel
	dimensions int64
}

var _ toolsearch.Embedder = (*Embedder)(nil)

// Option configures an Embedder.
type Option func(*config)

type config struct {
	model      sdk.EmbeddingModel
	dimensions int64
	sdkOpts    []option.RequestOption
}

// WithModel embeds with model instead of [DefaultModel].
func WithModel(model sdk.EmbeddingModel) Option { return func(c *config) { c.model = model } }

// WithDimensions asks for vectors of n dimensions (text-embedding-3 models
// and later); the model's own dimension otherwise.
func WithDimensions(n int64) Option { return func(c *config) { c.dimensions = n } }

// WithRequestOptions passes options to the SDK client: API key, HTTP client,
// retries, headers. Without an API key option the SDK reads OPENAI_API_KEY.
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(c *config) { c.sdkOpts = append(c.sdkOpts, opts...) }
}

// WithBaseURL sends requests to url: an Azure OpenAI endpoint, a proxy, a
// gateway or a test server.
func WithBaseURL(url string) Option { return WithRequestOptions(option.WithBaseURL(url)) }

// WithAPIKey authenticates requests with key.
func WithAPIKey(key string) Option { return WithRequestOptions(option.WithAPIKey(key)) }

// New returns an Embedder configured by opts.
func New(opts ...Option) *Embedder {
	c := config{model: DefaultModel}
	for _, o := range opts {
		o(&c)
	}
	return &Embedder{client: sdk.NewClient(c.sdkOpts...), model: c.model, dimensions: c.dimensions}
}

// Embed returns the vector of every text, in order, in as few requests as
// the API's limit on inputs allows. It fails when a request fails or a
// response does not hold exactly one vector for each of its texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for start := 0; start < len(texts); start += maxInputs {
		batch := texts[start:min(start+maxInputs, len(texts))]
		params := sdk.EmbeddingNewParams{
			Input:          sdk.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
			Model:          e.model,
			EncodingFormat: sdk.EmbeddingNewParamsEncodingFormatFloat,
		}
		if e.dimensions > 0 {
			params.Dimensions = sdk.Int(e.dimensions)
		}
		res, err := e.client.Embeddings.New(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("openai embeddings: %w", err)
		}
		if len(res.Data) != len(batch) {
			return nil, fmt.Errorf("openai embeddings: %d vectors for %d texts", len(res.Data), len(batch))
		}
		for _, d := range res.Data {
			if d.Index < 0 || d.Index >= int64(len(batch)) || out[start+int(d.Index)] != nil {
				return nil, fmt.Errorf("openai embeddings: vector index %d out of range or repeated", d.Index)
			}
			if len(d.Embedding) == 0 {
				return nil, fmt.Errorf("openai embeddings: empty vector %d", d.Index)
			}
			v := make([]float32, len(d.Embedding))
			for i, x := range d.Embedding {
				v[i] = float32(x)
			}
			out[start+int(d.Index)] = v
		}
	}
	return out, nil
}
