package openaiembed_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/internal/embedserver"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch/openaiembed"
)

// realModel returns an Embedder on a local server of the embeddings API that
// runs a real sentence-embedding model (internal/embedserver).
func realModel(t *testing.T) *openaiembed.Embedder {
	url := embedserver.Start(t)
	return openaiembed.New(openaiembed.WithBaseURL(url), openaiembed.WithModel(embedserver.Model),
		openaiembed.WithRequestOptions(option.WithAPIKey("unused"), option.WithMaxRetries(0)))
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// TestRealModelMeaning embeds with a real model through the SDK: each
// request is closer in meaning to the tool that serves it than to the other,
// sharing no word with either.
func TestRealModelMeaning(t *testing.T) {
	e := realModel(t)
	cases := []struct{ query, closer, farther string }{
		{"will it rain in Paris tomorrow", "Weather forecast for a city", "Convert an amount between currencies"},
		{"how many yen is 20 dollars", "Convert an amount between currencies", "Weather forecast for a city"},
		{"send a note to my colleague", "Send an email message", "Delete a file from disk"},
		{"what is the Spanish for good morning", "Translate text from one language into another", "Send an email message"},
	}
	texts := []string{}
	for _, c := range cases {
		texts = append(texts, c.query, c.closer, c.farther)
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != embedserver.Dimensions {
			t.Fatalf("vector %d has %d dimensions, want %d", i, len(v), embedserver.Dimensions)
		}
	}
	for i, c := range cases {
		q, near, far := vecs[3*i], vecs[3*i+1], vecs[3*i+2]
		if cn, cf := cosine(q, near), cosine(q, far); cn <= cf {
			t.Errorf("%q: similarity %.3f to %q, not above %.3f to %q", c.query, cn, c.closer, cf, c.farther)
		}
	}
}

// TestRealModelServerErrors: what the server refuses reaches the caller as
// the SDK's API error, wrapped.
func TestRealModelServerErrors(t *testing.T) {
	url := embedserver.Start(t)
	cases := []struct {
		name   string
		opts   []openaiembed.Option
		status int
		want   string
	}{
		{"unknown model", []openaiembed.Option{openaiembed.WithModel("text-embedding-3-small")}, 404, "does not exist"},
		{"dimensions the model lacks", []openaiembed.Option{openaiembed.WithModel(embedserver.Model), openaiembed.WithDimensions(256)}, 400, "512 dimensions, not 256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]openaiembed.Option{openaiembed.WithBaseURL(url),
				openaiembed.WithRequestOptions(option.WithAPIKey("unused"), option.WithMaxRetries(0))}, c.opts...)
			_, err := openaiembed.New(opts...).Embed(context.Background(), []string{"hello"})
			var apiErr *sdk.Error
			if !errors.As(err, &apiErr) || apiErr.StatusCode != c.status || !strings.Contains(apiErr.Message, c.want) {
				t.Fatalf("error %v, want an API error %d saying %q", err, c.status, c.want)
			}
		})
	}
}

// TestRealModelHybrid searches a small catalog with hybrid search on a real
// model: a request that shares no word with any tool finds nothing lexically
// and finds its tool through the model; an exact name still comes first.
func TestRealModelHybrid(t *testing.T) {
	docs := []toolsearch.Document{
		{Name: "weather_forecast", Description: "Weather forecast for a city: temperature and precipitation for the coming days."},
		{Name: "convert_currency", Description: "Convert an amount of money between two currencies at today's exchange rate."},
		{Name: "send_email", Description: "Send an email message to a recipient."},
		{Name: "delete_file", Description: "Delete a file from disk."},
		{Name: "create_calendar_event", Description: "Create an event in the user's calendar."},
		{Name: "translate_text", Description: "Translate text from one language into another."},
	}
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		t.Fatal(err)
	}
	tools := make([]toolsearch.EmbeddingTool, len(docs))
	for i, d := range docs {
		tools[i] = toolsearch.EmbeddingTool{Name: d.Name, Fingerprint: d.Name, Text: toolsearch.EmbeddingText(d)}
	}
	h, err := toolsearch.NewHybridIndex(context.Background(), ix, toolsearch.NewEmbeddingCache(realModel(t)), tools)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ query, first string }{
		{"will it rain in Paris tomorrow", "weather_forecast"},
		{"how many yen is 20 dollars", "convert_currency"},
		{"what is the Spanish for good morning", "translate_text"},
		{"send_email to Bob about the forecast", "send_email"}, // exact name first
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got, err := h.Search(context.Background(), c.query, 3)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || got[0].Name != c.first {
				t.Fatalf("hybrid search ranks %v, want %s first", got, c.first)
			}
		})
	}
	for _, q := range cases[:3] {
		if r := ix.Search(q.query, 3); len(r) != 0 && r[0].Name == q.first {
			t.Errorf("%q: the lexical index alone finds %s first; the case does not show the model's part", q.query, q.first)
		}
	}
}
