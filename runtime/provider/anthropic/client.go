package anthropic

import (
	"context"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Provider is the name this adapter gives in model.ProviderError and the key
// of its records in message and part metadata.
const Provider = "anthropic"

// HostedSearch selects the provider's hosted tool search tool.
type HostedSearch int

// Hosted search tools.
const (
	// ClientSearch runs discovery in the application: the discovery tool is
	// an ordinary tool answered by package discovery (the default).
	ClientSearch HostedSearch = iota
	// SearchBM25 declares tool_search_tool_bm25_20251119: natural-language
	// queries ranked by the provider.
	SearchBM25
	// SearchRegex declares tool_search_tool_regex_20251119: regular
	// expressions over tool names and descriptions.
	SearchRegex
)

// String returns "client", "bm25" or "regex".
func (s HostedSearch) String() string {
	switch s {
	case ClientSearch:
		return "client"
	case SearchBM25:
		return "bm25"
	case SearchRegex:
		return "regex"
	}
	return fmt.Sprintf("HostedSearch(%d)", int(s))
}

// Client is a model.Client for the Anthropic Messages API. It is safe for
// concurrent use.
type Client struct {
	sdk     anthropic.Client
	sdkOpts []option.RequestOption
	emulate bool
	catalog bool
	hosted  HostedSearch
	// noToolChanges turns mid-conversation tool changes off.
	noToolChanges bool
}

// WithConversationCatalog renders emulated discovery in conversation
// catalog mode on every request (model.Discovery.ConversationCatalog):
// fixed declarations with a dispatcher, discovered tools in catalog
// messages. Native discovery is not affected; with WithEmulation it applies
// to every model.
func WithConversationCatalog() Option { return func(c *Client) { c.catalog = true } }

var _ model.Client = (*Client)(nil)

// Option configures a Client.
type Option func(*Client)

// WithRequestOptions passes options to the SDK client: base URL, API key,
// HTTP client, retries, headers (option.WithBaseURL, option.WithAPIKey,
// ...). Without them the SDK reads its environment (ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL).
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(c *Client) { c.sdkOpts = append(c.sdkOpts, opts...) }
}

// WithBaseURL sends requests to url, such as a proxy, a gateway or a test
// server.
func WithBaseURL(url string) Option { return WithRequestOptions(option.WithBaseURL(url)) }

// WithAPIKey authenticates requests with key.
func WithAPIKey(key string) Option { return WithRequestOptions(option.WithAPIKey(key)) }

// WithEmulation forces emulated discovery on every model, for proxies and
// gateways that drop deferred tools and tool references.
func WithEmulation() Option { return func(c *Client) { c.emulate = true } }

// WithoutToolChanges renders a permitted catalog that changes between steps
// by declaring it as permitted, on every model, instead of with
// mid-conversation tool changes: for gateways that do not pass the beta on,
// and for model IDs this package does not recognize that name a model
// without tool changes.
func WithoutToolChanges() Option { return func(c *Client) { c.noToolChanges = true } }

// WithHostedSearch makes native discovery use the provider's hosted search
// tool s instead of the application's discovery tool. ClientSearch restores
// the default. Emulated models are not affected.
func WithHostedSearch(s HostedSearch) Option { return func(c *Client) { c.hosted = s } }

// New returns a Client configured by opts.
func New(opts ...Option) *Client {
	c := &Client{}
	for _, o := range opts {
		o(c)
	}
	c.sdk = anthropic.NewClient(c.sdkOpts...)
	return c
}

// Complete renders req, sends it and decodes the answer into an assistant
// message. Requests that break a rule are rejected before sending with an
// error matching model.ErrInvalidRequest; provider failures come back as
// *model.ProviderError. A turn the provider pauses (stop reason
// pause_turn, a long hosted search) is continued: the content so far goes
// back as the assistant turn, as it came, and the provider goes on, up to
// MaxPauseContinuations times; the answer is the whole turn.
func (c *Client) Complete(ctx context.Context, req *model.Request) (*model.Response, error) {
	r, err := c.render(req)
	if err != nil {
		return nil, err
	}
	var turn pausedTurn
	for {
		msg, err := c.sdk.Beta.Messages.New(ctx, turn.params(r.params), r.opts...)
		if err != nil {
			return nil, providerError(err)
		}
		done, err := turn.add(msg)
		if err != nil {
			return nil, err
		}
		if done {
			return r.finish(r.decoder().response(msg))
		}
	}
}

// Stream renders and sends req and returns its answer as events: text
// deltas, each tool call once complete, each discovery call as one complete
// event, and a final done event holding the same response Complete returns
// (a paused turn is continued as Complete continues it).
func (c *Client) Stream(ctx context.Context, req *model.Request) (model.Stream, error) {
	r, err := c.render(req)
	if err != nil {
		return nil, err
	}
	open := func(turn *pausedTurn) *ssestream.Stream[anthropic.BetaRawMessageStreamEventUnion] {
		return c.sdk.Beta.Messages.NewStreaming(ctx, turn.params(r.params), r.opts...)
	}
	s := newStream(open, r.decoder())
	s.finish = r.recordToolChanges
	if r.conv != nil {
		return r.conv.Stream(s), nil
	}
	return s, nil
}
