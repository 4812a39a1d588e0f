package conformance

import (
	"context"
	"os"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openai"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openaichat"
)

// TestAdapterRequests sends one discovery request through each adapter and
// rendering, as the application would, to a loopback test double of the
// provider's API (openaitest.Server), and checks what arrived: the body
// decodes strictly into the SDK's request type and every documented rule
// holds, headers included.
func TestAdapterRequests(t *testing.T) {
	recording := func(provider, name string) string {
		b, err := os.ReadFile("../../../../example/cmd/assistant/recordings/" + provider + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	type build func(url string) model.Client
	anthropicClient := func(opts ...anthropic.Option) build {
		return func(url string) model.Client {
			return anthropic.New(append([]anthropic.Option{anthropic.WithBaseURL(url), anthropic.WithAPIKey("test-key")}, opts...)...)
		}
	}
	openaiClient := func(opts ...openai.Option) build {
		return func(url string) model.Client {
			return openai.New(append([]openai.Option{openai.WithBaseURL(url), openai.WithAPIKey("test-key")}, opts...)...)
		}
	}
	tests := []struct {
		name, provider, path, model, reply string
		client                             build
	}{
		{"anthropic client search", Anthropic, "/v1/messages", "claude-sonnet-4-5", recording("anthropic", "1-search.json"), anthropicClient()},
		{"anthropic hosted bm25", Anthropic, "/v1/messages", "claude-sonnet-4-5", recording("anthropic", "1-search.json"), anthropicClient(anthropic.WithHostedSearch(anthropic.SearchBM25))},
		{"anthropic hosted regex", Anthropic, "/v1/messages", "claude-sonnet-4-5", recording("anthropic", "1-search.json"), anthropicClient(anthropic.WithHostedSearch(anthropic.SearchRegex))},
		{"anthropic forced emulation", Anthropic, "/v1/messages", "claude-sonnet-4-5", recording("anthropic", "1-search.json"), anthropicClient(anthropic.WithEmulation())},
		{"openai native", OpenAIResponses, "/responses", "gpt-5.4", recording("openai", "1-search.json"), openaiClient()},
		{"openai native without storage", OpenAIResponses, "/responses", "gpt-5.4", recording("openai", "1-search.json"), openaiClient(openai.WithStore(false))},
		{"openai emulated", OpenAIResponses, "/responses", "gpt-4.1", recording("openai", "1-search.json"), openaiClient()},
		{"anthropic forced emulation conversation catalog", Anthropic, "/v1/messages", "claude-sonnet-4-5", recording("anthropic", "1-search.json"), anthropicClient(anthropic.WithEmulation(), anthropic.WithConversationCatalog())},
		{"openai emulated conversation catalog", OpenAIResponses, "/responses", "gpt-4.1", recording("openai", "1-search.json"), openaiClient(openai.WithConversationCatalog())},
		{"openai forced emulation conversation catalog", OpenAIResponses, "/responses", "gpt-5.4", recording("openai", "1-search.json"), openaiClient(openai.WithEmulation(), openai.WithConversationCatalog())},
		{"openai chat conversation catalog", OpenAIChat, "/chat/completions", "gpt-4.1", recording("openai-chat", "1-search.json"), func(url string) model.Client {
			return openaichat.New(openaichat.WithBaseURL(url), openaichat.WithAPIKey("test-key"), openaichat.WithConversationCatalog())
		}},
		{"openai chat", OpenAIChat, "/chat/completions", "gpt-4.1", recording("openai-chat", "1-search.json"), func(url string) model.Client {
			return openaichat.New(openaichat.WithBaseURL(url), openaichat.WithAPIKey("test-key"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := openaitest.New(t, tt.path, openaitest.Reply{Body: tt.reply})
			c := tt.client(api.URL())
			req := openaitest.Prepare(t, c, tt.model, openaitest.Start(), openaitest.Catalog(t))
			if _, err := c.Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			body, header := api.Body(0), api.Header(0)
			if err := Strict(body, newParams(tt.provider)); err != nil {
				t.Errorf("strict decode: %v", err)
			}
			r, err := NewRequest(body, header)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range Violations(tt.provider, r) {
				t.Error(v)
			}
		})
	}
}
