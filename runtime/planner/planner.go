package planner

import (
	"context"
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Planner drives a model.Client: one request per planning step.
type Planner struct {
	client          model.Client
	model           string
	instructions    string
	maxOutputTokens int
	temperature     *float64
	stream          bool
}

// Option configures a Planner.
type Option func(*Planner)

// WithInstructions puts a system message with text before the run's
// messages on every request.
func WithInstructions(text string) Option { return func(p *Planner) { p.instructions = text } }

// WithMaxOutputTokens caps the tokens of each response.
func WithMaxOutputTokens(n int) Option { return func(p *Planner) { p.maxOutputTokens = n } }

// WithTemperature sets the sampling temperature.
func WithTemperature(t float64) Option { return func(p *Planner) { p.temperature = &t } }

// WithStreaming sends requests with Client.Stream and drains the stream,
// instead of Client.Complete.
func WithStreaming() Option { return func(p *Planner) { p.stream = true } }

// New returns a planner that asks client's model modelName.
func New(client model.Client, modelName string, opts ...Option) *Planner {
	p := &Planner{client: client, model: modelName}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Model returns the id of the model the planner asks; the runtime's spans
// of its calls carry it as gen_ai.request.model.
func (p *Planner) Model() string { return p.model }

// Plan sends the step's request and returns the model's response. A step
// that needs discovery on a model whose client supports none fails with
// model.ErrToolSearchUnsupported.
func (p *Planner) Plan(ctx context.Context, in *runtime.PlanInput) (*model.Response, error) {
	req, err := p.Request(in)
	if err != nil {
		return nil, err
	}
	var resp *model.Response
	if p.stream {
		s, err := p.client.Stream(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("planner: stream %s: %w", p.model, err)
		}
		resp, err = model.Drain(s)
		if err != nil {
			return nil, fmt.Errorf("planner: stream %s: %w", p.model, err)
		}
	} else {
		resp, err = p.client.Complete(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("planner: complete %s: %w", p.model, err)
		}
	}
	return resp, nil
}

// Capabilities returns the capabilities of the planner's model, for which
// the runtime declares each step's tools.
func (p *Planner) Capabilities() model.Capabilities { return p.client.Capabilities(p.model) }

// Request builds the request of one planning step. The declared tools are
// exactly in.Agent.AdvertisedToolDefinitions(); a client that discovers
// natively also gets the permitted deferred tools.
func (p *Planner) Request(in *runtime.PlanInput) (*model.Request, error) {
	caps := p.Capabilities()
	disc := in.Agent.Discovery()
	if disc.Enabled {
		switch caps.Discovery {
		case model.DiscoveryUnsupported:
			return nil, fmt.Errorf("planner: agent %q defers tools: %w", in.Agent.AgentName(), model.ErrToolSearchUnsupported)
		case model.DiscoveryNative:
			deferred, err := in.Agent.DeferredToolDefinitions()
			if err != nil {
				return nil, fmt.Errorf("planner: agent %q: %w", in.Agent.AgentName(), err)
			}
			disc.Deferred = deferred
		}
	}
	msgs := in.Messages
	if p.instructions != "" {
		msgs = slices.Concat([]model.Message{model.SystemMessage(p.instructions)}, in.Messages)
	}
	return &model.Request{
		Model:           p.model,
		Messages:        msgs,
		Tools:           in.Agent.AdvertisedToolDefinitions(),
		Discovery:       disc,
		MaxOutputTokens: p.maxOutputTokens,
		Temperature:     p.temperature,
	}, nil
}

var _ runtime.ModelPlanner = (*Planner)(nil)
