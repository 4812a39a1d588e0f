package openaiembed_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"os"

	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch/openaiembed"
)

// A hybrid index over a small catalog, its tools embedded with the OpenAI
// embeddings API (openaiembed.WithBaseURL points it at any server of the
// same API). The request shares no word with the currency tool; the
// embeddings find it. Compiled, not run: it calls the API.
func Example() {
	ctx := context.Background()
	docs := []toolsearch.Document{
		{Name: "weather_forecast", Description: "Weather forecast for a city: temperature and precipitation for the coming days."},
		{Name: "convert_currency", Description: "Convert an amount of money between two currencies at today's exchange rate."},
		{Name: "send_email", Description: "Send an email message to a recipient."},
	}
	index, err := toolsearch.NewIndexFromDocuments(docs)
	if err != nil {
		log.Fatal(err)
	}
	tools := make([]toolsearch.EmbeddingTool, len(docs))
	for i, d := range docs {
		text := toolsearch.EmbeddingText(d)
		// Vectors are cached by fingerprint: a catalog of tool schemas uses
		// their schema fingerprints; these documents have none, so the
		// hash of the text stands in.
		sum := sha256.Sum256([]byte(text))
		tools[i] = toolsearch.EmbeddingTool{Name: d.Name, Fingerprint: hex.EncodeToString(sum[:]), Text: text}
	}
	cache := toolsearch.NewEmbeddingCache(openaiembed.New(openaiembed.WithAPIKey(os.Getenv("OPENAI_API_KEY"))))
	hybrid, err := toolsearch.NewHybridIndex(ctx, index, cache, tools)
	if err != nil {
		log.Fatal(err)
	}
	results, err := hybrid.Search(ctx, "how many yen for 20 dollars", 5)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Println(r.Name, r.Score)
	}
}
