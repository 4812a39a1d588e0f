package openai

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// Client is a model.Client for the OpenAI Responses API. It is safe for
// concurrent use.
type Client struct {
	sdk        sdk.Client
	sdkOpts    []option.RequestOption
	emulate    bool
	namespaces map[string]string
	// store is the explicit store setting; nil leaves the API's default
	// (store the response).
	store   *bool
	effort  shared.ReasoningEffort
	catalog bool
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
// HTTP client, retries, headers (option.WithBaseURL, option.WithAPIKey, ...).
// Without an API key option the SDK reads OPENAI_API_KEY.
func WithRequestOptions(opts ...option.RequestOption) Option {
	return func(c *Client) { c.sdkOpts = append(c.sdkOpts, opts...) }
}

// WithBaseURL sends requests to url: an Azure OpenAI endpoint, a proxy, a
// gateway or a test server.
func WithBaseURL(url string) Option { return WithRequestOptions(option.WithBaseURL(url)) }

// WithAPIKey authenticates requests with key.
func WithAPIKey(key string) Option { return WithRequestOptions(option.WithAPIKey(key)) }

// WithEmulation renders discovery emulated for every model, also for models
// with native tool search: for proxies and gateways that drop native items.
func WithEmulation() Option {
	return func(c *Client) { c.emulate = true }
}

// WithNamespaceDescriptions gives the descriptions of the namespaces that
// native tool search loads discovered tools into, by toolset name (a
// toolset's own description). A toolset without one is described as "Tools
// of the <toolset> toolset.". The descriptions are fixed for the client's
// life, so every request renders a loaded namespace the same way.
func WithNamespaceDescriptions(byToolset map[string]string) Option {
	return func(c *Client) {
		if c.namespaces == nil {
			c.namespaces = make(map[string]string, len(byToolset))
		}
		for k, v := range byToolset {
			c.namespaces[k] = v
		}
	}
}

// WithStore sets the request's store field: false asks the provider to
// keep nothing (zero data retention). Without storage a reasoning item can
// be sent back only with its content, so every request then asks for
// reasoning.encrypted_content (include) and the history replays it; a
// reasoning item recorded without it (by a client that stored) cannot be
// sent, and a request holding one fails with RuleStore before sending.
// Without WithStore the field is not sent and the API stores responses.
func WithStore(store bool) Option { return func(c *Client) { c.store = &store } }

// WithReasoningEffort sets reasoning.effort on every request, for
// reasoning models. It decides whether a temperature may be sent: see
// RuleSampling.
func WithReasoningEffort(e shared.ReasoningEffort) Option { return func(c *Client) { c.effort = e } }

// New returns a client. With no WithRequestOptions it uses the SDK's
// defaults (api.openai.com, OPENAI_API_KEY).
func New(opts ...Option) *Client {
	c := &Client{}
	for _, o := range opts {
		o(c)
	}
	c.sdk = sdk.NewClient(c.sdkOpts...)
	return c
}

// Capabilities reports native discovery for models with client-executed
// tool search (unless the client emulates), emulated discovery for every
// other model, and strict tool schemas within OpenAI's strict subset.
func (c *Client) Capabilities(modelID string) model.Capabilities {
	mode := model.DiscoveryEmulated
	if !c.emulate && nativeDiscovery(modelID) {
		mode = model.DiscoveryNative
	}
	return model.Capabilities{
		Discovery: mode,
		Strict:    model.StrictLimits{Supported: true, SubsetOnly: true},
	}
}

// Complete renders req, sends it and decodes the response. A request that
// breaks a rule is rejected before sending with an error matching
// model.ErrInvalidRequest (or model.ErrToolSearchUnsupported); provider
// failures come back as *model.ProviderError.
func (c *Client) Complete(ctx context.Context, req *model.Request) (*model.Response, error) {
	w, params, err := c.render(req)
	if err != nil {
		return nil, err
	}
	resp, err := c.sdk.Responses.New(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", openaiwire.ProviderError(err))
	}
	return w.finish(w.decodeResponse(resp))
}

// render checks req and renders it for the model's discovery mode.
func (c *Client) render(req *model.Request) (*wire, responses.ResponseNewParams, error) {
	if req == nil {
		return nil, responses.ResponseNewParams{}, errors.New("openai: nil request")
	}
	return renderRequest(req, c.Capabilities(req.Model), c.settings())
}

// settings returns what the client adds to every request.
func (c *Client) settings() settings {
	return settings{namespaces: c.namespaces, store: c.store, effort: c.effort, catalog: c.catalog}
}
