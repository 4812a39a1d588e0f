// Model clients: one adapter per provider, built on the provider's SDK, sent
// to a replay server or to the provider with its API key.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	openaioption "github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openai"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openaichat"
)

// errMissingKey is wrapped when a live provider's API key is not set.
var errMissingKey = errors.New("missing API key")

// providerSetup is how the quickstart reaches one provider.
type providerSetup struct {
	// keyVar is the environment variable holding the API key.
	keyVar string
	// model is the default model ID, also the one the recordings were made
	// with.
	model string
	// path is the request path of the endpoint the adapter calls, relative
	// to the server's root, for a base URL of baseURL.
	path string
	// basePath is appended to a replay server's URL to form the base URL
	// the SDK expects.
	basePath string
}

// setups lists every provider the quickstart supports.
var setups = map[string]providerSetup{
	providerAnthropic:  {keyVar: "ANTHROPIC_API_KEY", model: "claude-sonnet-4-5", path: "/v1/messages", basePath: "/"},
	providerOpenAI:     {keyVar: "OPENAI_API_KEY", model: "gpt-5.4", path: "/v1/responses", basePath: "/v1/"},
	providerOpenAIChat: {keyVar: "OPENAI_API_KEY", model: "gpt-4.1", path: "/v1/chat/completions", basePath: "/v1/"},
}

// endpoint says where a client sends its requests: a replay server (url and
// a placeholder key) or the provider itself (empty url, the real key).
type endpoint struct {
	url    string
	apiKey string
	// httpClient, when set, carries every request and records body sizes
	// (a replay server records them itself).
	httpClient *http.Client
}

// newModelClient returns the adapter of provider over the official SDK;
// emulate forces emulated discovery (Chat Completions always emulates).
func newModelClient(provider string, ep endpoint, emulate bool) (model.Client, error) {
	switch provider {
	case providerAnthropic:
		opts := []anthropicoption.RequestOption{anthropicoption.WithAPIKey(ep.apiKey)}
		if ep.httpClient != nil {
			opts = append(opts, anthropicoption.WithHTTPClient(ep.httpClient))
		}
		if ep.url != "" {
			opts = append(opts, anthropicoption.WithBaseURL(ep.url), anthropicoption.WithMaxRetries(0))
		}
		if emulate {
			return anthropic.New(anthropic.WithRequestOptions(opts...), anthropic.WithEmulation()), nil
		}
		return anthropic.New(anthropic.WithRequestOptions(opts...)), nil
	case providerOpenAI, providerOpenAIChat:
		opts := []openaioption.RequestOption{openaioption.WithAPIKey(ep.apiKey)}
		if ep.httpClient != nil {
			opts = append(opts, openaioption.WithHTTPClient(ep.httpClient))
		}
		if ep.url != "" {
			opts = append(opts, openaioption.WithBaseURL(ep.url), openaioption.WithMaxRetries(0))
		}
		if provider == providerOpenAI && emulate {
			return openai.New(openai.WithRequestOptions(opts...), openai.WithEmulation()), nil
		}
		if provider == providerOpenAI {
			return openai.New(openai.WithRequestOptions(opts...)), nil
		}
		return openaichat.New(openaichat.WithRequestOptions(opts...)), nil
	}
	return nil, fmt.Errorf("%w: unknown provider %q", errUsage, provider)
}

// liveEndpoint reads the provider's API key from the environment.
func liveEndpoint(provider string, getenv func(string) string, log *requestLog) (endpoint, error) {
	s := setups[provider]
	key := getenv(s.keyVar)
	if key == "" {
		return endpoint{}, fmt.Errorf("%w: -provider %s reads its key from %s, which is not set; "+
			"export %s=... or run without -provider to replay recorded responses offline",
			errMissingKey, provider, s.keyVar, s.keyVar)
	}
	return endpoint{apiKey: key, httpClient: &http.Client{Transport: countingTransport{next: http.DefaultTransport, log: log}}}, nil
}

// requestLog records the body size of every request sent to the model
// provider, in order. It is safe for concurrent use.
type requestLog struct {
	mu    sync.Mutex
	sizes []int
}

func (l *requestLog) add(n int) {
	l.mu.Lock()
	l.sizes = append(l.sizes, n)
	l.mu.Unlock()
}

// all returns a copy of the recorded sizes.
func (l *requestLog) all() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.sizes...)
}

// countingTransport records the body size of each request it sends.
type countingTransport struct {
	next http.RoundTripper
	log  *requestLog
}

// RoundTrip implements http.RoundTripper.
func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil || req.Body == http.NoBody {
		t.log.add(0)
		return t.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	t.log.add(len(body))
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	out.ContentLength = int64(len(body))
	return t.next.RoundTrip(out)
}
