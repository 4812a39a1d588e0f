package openaichat

import (
	"context"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// Client is a model.Client for Chat Completions. It is safe for concurrent
// use.
type Client struct {
	sdk          sdk.Client
	sdkOpts      []option.RequestOption
	noTools      bool
	noStrict     bool
	legacyTokens bool
	effort       shared.ReasoningEffort
	catalog      bool
}

// WithConversationCatalog renders every request in conversation catalog
// mode (model.Discovery.ConversationCatalog): fixed declarations with a
// dispatcher, discovered tools in catalog messages, so the endpoint's
// prompt cache keeps the whole history.
func WithConversationCatalog() Option {
	return func(c *Client) { c.catalog = true }
}

// WithReasoningEffort sets reasoning_effort on every request, for
// reasoning models. It decides whether a temperature may be sent: see
// RuleSampling.
func WithReasoningEffort(e shared.ReasoningEffort) Option {
	return func(c *Client) { c.effort = e }
}

// RuleSampling is the rule a temperature breaks on a model that reasons
// (see openaiwire.RuleSampling).
const RuleSampling = openaiwire.RuleSampling

var _ model.Client = (*Client)(nil)

// Option configures a Client.
type Option func(*Client)

// WithRequestOptions passes options to the SDK client: base URL, API key,
// HTTP client, retries, headers (option.WithBaseURL, option.WithAPIKey, ...).
// Without an API key option the SDK reads OPENAI_API_KEY.
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(c *Client) { c.sdkOpts = append(c.sdkOpts, opts...) }
}

// WithBaseURL sends requests to url: any OpenAI-compatible endpoint, a proxy
// or a test server.
func WithBaseURL(url string) Option { return WithRequestOptions(option.WithBaseURL(url)) }

// WithAPIKey authenticates requests with key.
func WithAPIKey(key string) Option { return WithRequestOptions(option.WithAPIKey(key)) }

// WithEmulation is accepted for symmetry with the other adapters: this
// client always emulates discovery.
func WithEmulation() Option { return func(*Client) {} }

// WithoutTools declares that the endpoint has no function calling: the
// client reports model.DiscoveryUnsupported and refuses requests that
// declare tools.
func WithoutTools() Option { return func(c *Client) { c.noTools = true } }

// WithoutStrictTools declares that the endpoint does not accept strict
// function schemas: discovered tools are then declared non-strict.
func WithoutStrictTools() Option { return func(c *Client) { c.noStrict = true } }

// WithMaxTokens sends the output token limit as "max_tokens", for
// endpoints that do not know "max_completion_tokens".
func WithMaxTokens() Option { return func(c *Client) { c.legacyTokens = true } }

// New returns a client. With no request options it uses the SDK's defaults
// (api.openai.com, OPENAI_API_KEY).
func New(opts ...Option) *Client {
	c := &Client{}
	for _, o := range opts {
		o(c)
	}
	c.sdk = sdk.NewClient(c.sdkOpts...)
	return c
}

// Capabilities reports emulated discovery for every model (unsupported with
// WithoutTools) and strict tool schemas within OpenAI's strict subset
// (none with WithoutTools or WithoutStrictTools).
func (c *Client) Capabilities(string) model.Capabilities {
	if c.noTools {
		return model.Capabilities{Discovery: model.DiscoveryUnsupported}
	}
	caps := model.Capabilities{Discovery: model.DiscoveryEmulated}
	if !c.noStrict {
		caps.Strict = model.StrictLimits{Supported: true, SubsetOnly: true}
	}
	return caps
}

// Complete renders req, sends it and decodes the first choice. A request
// that breaks a rule is rejected before sending with an error matching
// model.ErrInvalidRequest (or model.ErrToolSearchUnsupported); provider
// failures come back as *model.ProviderError.
func (c *Client) Complete(ctx context.Context, req *model.Request) (*model.Response, error) {
	w, params, err := c.render(req)
	if err != nil {
		return nil, err
	}
	resp, err := c.sdk.Chat.Completions.New(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("openaichat: %w", openaiwire.ProviderError(err))
	}
	out, err := w.decodeCompletion(resp)
	if err != nil {
		return nil, err
	}
	if w.conv != nil {
		w.conv.Finish(out)
	}
	return out, nil
}
