package runtime

import (
	"context"
	"maps"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// DiscoveryToolName is the name requests give the discovery tool; package
// discovery decides it.
const DiscoveryToolName = discovery.ToolName

// Planner decides an agent's next step. Package planner has one that drives
// any model.Client; applications can write their own.
type Planner interface {
	// Plan returns the assistant's next message as a response: with tool
	// calls or discovery calls to continue the run, without calls to finish
	// it. The response must pass model.Response.Validate.
	Plan(ctx context.Context, in *PlanInput) (*model.Response, error)
}

// PlannerFunc adapts a function to Planner.
type PlannerFunc func(ctx context.Context, in *PlanInput) (*model.Response, error)

// Plan calls f.
func (f PlannerFunc) Plan(ctx context.Context, in *PlanInput) (*model.Response, error) {
	return f(ctx, in)
}

// ModelPlanner is a Planner that knows the capabilities of the model it
// asks, as package planner's does. The runtime declares each step's tools
// for them: beyond the model's strict-tool limits, discovered tools are
// declared non-strict, as discovery.Declare decides. For a planner without
// them the runtime assumes a model that accepts every strict tool, and a
// provider adapter's discovery.Check refuses a request the model cannot
// take.
type ModelPlanner interface {
	Planner
	// Capabilities returns the capabilities of the model the planner asks.
	Capabilities() model.Capabilities
}

// capabilities returns the capabilities of the model behind p; for a
// planner that does not say, those of a model that accepts every strict
// tool.
func capabilities(p Planner) model.Capabilities {
	if mp, ok := p.(ModelPlanner); ok {
		return mp.Capabilities()
	}
	return model.Capabilities{Strict: model.StrictLimits{Supported: true}}
}

// PlanInput is what a planner gets for one step.
type PlanInput struct {
	// Messages is the run's history so far. Planners must not modify it.
	Messages []model.Message
	// Agent describes the agent and what the step's request declares.
	Agent AgentContext
}

// AgentContext describes one planning step of a run to its planner.
type AgentContext interface {
	// RunID identifies the run.
	RunID() string
	// AgentName names the agent.
	AgentName() string
	// Step is the 1-based number of the planning step.
	Step() int
	// Labels returns a copy of the run's labels.
	Labels() map[string]string
	// AdvertisedToolDefinitions returns exactly what the next request
	// declares, after run policy, as discovery.Declare decides it for the
	// run's history and the model's capabilities (see ModelPlanner): the
	// permitted immediate tools, the discovery tool when the agent has
	// deferred tools, then the tools discovered so far by latest snapshot
	// in order of first discovery. The caller may modify the slice.
	AdvertisedToolDefinitions() []model.ToolDefinition
	// Discovery returns the request's discovery settings: on when the
	// agent has deferred tools, with the agent's description text.
	Discovery() model.Discovery
	// DeferredToolDefinitions returns the permitted deferred tools, for
	// providers that declare deferred tools up front. The first call for a
	// catalog and policy builds them, in time proportional to the catalog;
	// planners call it only for such providers.
	DeferredToolDefinitions() ([]model.ToolDefinition, error)
}

// stepContext is the AgentContext of one step.
type stepContext struct {
	run   *run
	cat   *catalog
	step  int
	tools []model.ToolDefinition // the step's declarations
}

func (s *stepContext) RunID() string              { return s.run.id }
func (s *stepContext) AgentName() string          { return s.run.agent.reg.Name }
func (s *stepContext) Step() int                  { return s.step }
func (s *stepContext) Labels() map[string]string  { return maps.Clone(s.run.policy.labels) }
func (s *stepContext) Discovery() model.Discovery { return s.run.discoverySettings() }

func (s *stepContext) AdvertisedToolDefinitions() []model.ToolDefinition {
	return slices.Clone(s.tools)
}

func (s *stepContext) DeferredToolDefinitions() ([]model.ToolDefinition, error) {
	dc, err := s.cat.permittedFor(s.run.policy)
	if err != nil {
		return nil, err
	}
	return slices.Clone(dc.Deferred()), nil
}
