package planner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/planner"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// scriptedClient is a model.Client test double: it checks every request as
// a provider adapter does (discovery.Check) and answers it with a final text, through Complete or a one-event stream, and records
// the requests.
type scriptedClient struct {
	mu       sync.Mutex
	mode     model.DiscoveryMode
	strict   model.StrictLimits
	requests []*model.Request
	streamed int
}

func (c *scriptedClient) answer(req *model.Request) (*model.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, req)
	if err := discovery.Check(req, c.Capabilities(req.Model)); err != nil {
		return nil, fmt.Errorf("scripted client: request fails the adapters' check: %w", err)
	}
	return model.NewResponse(model.AssistantMessage(model.TextPart("ok")), model.FinishStop, model.Usage{})
}

func (c *scriptedClient) Complete(_ context.Context, req *model.Request) (*model.Response, error) {
	return c.answer(req)
}

func (c *scriptedClient) Stream(_ context.Context, req *model.Request) (model.Stream, error) {
	resp, err := c.answer(req)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.streamed++
	c.mu.Unlock()
	return &doneStream{resp: resp}, nil
}

func (c *scriptedClient) Capabilities(string) model.Capabilities {
	return model.Capabilities{Discovery: c.mode, Strict: c.strict}
}

// doneStream is a model.Stream test double holding one DoneEvent.
type doneStream struct {
	resp *model.Response
	sent bool
}

func (s *doneStream) Recv() (model.Event, error) {
	if s.sent {
		return nil, io.EOF
	}
	s.sent = true
	return &model.DoneEvent{Response: s.resp}, nil
}

func (s *doneStream) Close() error { return nil }

// setup registers a toolset "kb" with one immediate and two deferred tools
// and an agent planned by p.
func setup(t *testing.T, p runtime.Planner) *runtime.Runtime {
	t.Helper()
	rt := runtime.New()
	payload := `{"type":"object","properties":{"q":{"type":"string"}}}`
	schema := tools.MustCompileSchema([]byte(payload))
	ts := tools.ToolsetSchema{Name: "kb"}
	var specs []tools.ToolSpec
	for _, name := range []string{"read", "write", "purge"} {
		id := tools.Ident("kb." + name)
		ts.Tools = append(ts.Tools, tools.ToolSchema{Name: id, Description: name + " the knowledge base", Payload: json.RawMessage(payload)})
		specs = append(specs, tools.ToolSpec{Name: id, Payload: tools.NewRawCodec(schema)})
	}
	exec := runtime.ToolExecutorFunc(func(context.Context, *runtime.ToolInvocation) (any, error) { return "ok", nil })
	if err := rt.RegisterToolset(runtime.ToolsetRegistration{Schema: ts, Specs: specs, Executor: exec}); err != nil {
		t.Fatal(err)
	}
	reg := runtime.AgentRegistration{
		Name:                 "kb",
		Immediate:            []tools.Ident{"kb.read"},
		Deferred:             []tools.Ident{"kb.write", "kb.purge"},
		DiscoveryDescription: "Knowledge base tools.",
		Planner:              p,
	}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	return rt
}

func names(defs []model.ToolDefinition) []string {
	out := []string{}
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

func TestPlannerRequest(t *testing.T) {
	tests := []struct {
		name         string
		mode         model.DiscoveryMode
		opts         []planner.Option
		wantDeferred []string
		wantSystem   bool
		wantStreamed int
	}{
		{name: "emulated", mode: model.DiscoveryEmulated, wantDeferred: []string{}},
		{name: "native gets the permitted deferred tools", mode: model.DiscoveryNative, wantDeferred: []string{"kb_write"}},
		{name: "instructions", mode: model.DiscoveryEmulated, opts: []planner.Option{planner.WithInstructions("Be brief.")}, wantDeferred: []string{}, wantSystem: true},
		{name: "streaming", mode: model.DiscoveryEmulated, opts: []planner.Option{planner.WithStreaming(), planner.WithMaxOutputTokens(64), planner.WithTemperature(0.5)}, wantDeferred: []string{}, wantStreamed: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			client := &scriptedClient{mode: tc.mode}
			p := planner.New(client, "m1", tc.opts...)
			var advertised []model.ToolDefinition
			spy := runtime.PlannerFunc(func(ctx context.Context, in *runtime.PlanInput) (*model.Response, error) {
				advertised = in.Agent.AdvertisedToolDefinitions()
				return p.Plan(ctx, in)
			})
			rt := setup(t, spy)
			out, err := rt.Client("kb").Run(context.Background(), []model.Message{model.UserMessage("hi")},
				runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"kb.purge"}}))
			if err != nil {
				t.Fatal(err)
			}
			if out.Final.Text() != "ok" || len(client.requests) != 1 {
				t.Fatalf("final %q after %d requests", out.Final.Text(), len(client.requests))
			}
			req := client.requests[0]
			if diff := cmp.Diff(advertised, req.Tools); diff != "" {
				t.Errorf("request tools differ from the advertised ones (-advertised +request):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"kb_read", runtime.DiscoveryToolName}, names(req.Tools)); diff != "" {
				t.Errorf("declared (-want +got):\n%s", diff)
			}
			if !req.Discovery.Enabled || req.Discovery.Description != "Knowledge base tools." {
				t.Errorf("discovery settings %+v", req.Discovery)
			}
			if diff := cmp.Diff(tc.wantDeferred, names(req.Discovery.Deferred)); diff != "" {
				t.Errorf("deferred (-want +got):\n%s", diff)
			}
			if got := req.Messages[0].Role == model.RoleSystem; got != tc.wantSystem || req.Model != "m1" {
				t.Errorf("model %q, first message %+v", req.Model, req.Messages[0])
			}
			if client.streamed != tc.wantStreamed {
				t.Errorf("streamed %d requests, want %d", client.streamed, tc.wantStreamed)
			}
		})
	}
}

// TestPlannerCapabilities checks that the planner reports its model's
// capabilities, for which the runtime declares each step's tools.
func TestPlannerCapabilities(t *testing.T) {
	for _, strict := range []model.StrictLimits{{}, {Supported: true, MaxTools: 2}} {
		client := &scriptedClient{mode: model.DiscoveryNative, strict: strict}
		var p runtime.ModelPlanner = planner.New(client, "m1")
		if got, want := p.Capabilities(), client.Capabilities("m1"); got != want {
			t.Errorf("Capabilities = %+v, want the client's %+v", got, want)
		}
	}
}

func TestPlannerRefusesUnsupportedDiscovery(t *testing.T) {
	client := &scriptedClient{mode: model.DiscoveryUnsupported}
	rt := setup(t, planner.New(client, "m1"))
	_, err := rt.Client("kb").Run(context.Background(), []model.Message{model.UserMessage("hi")})
	if !errors.Is(err, model.ErrToolSearchUnsupported) || !errors.Is(err, runtime.ErrPlanner) {
		t.Fatalf("error %v, want ErrToolSearchUnsupported from the planner", err)
	}
	if len(client.requests) != 0 {
		t.Errorf("sent %d requests", len(client.requests))
	}
}

func ExamplePlanner() {
	client := &scriptedClient{mode: model.DiscoveryEmulated} // a test double for a provider adapter
	rt := runtime.New()
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:    "greeter",
		Planner: planner.New(client, "any-model", planner.WithInstructions("Greet the user.")),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := rt.Client("greeter").Run(context.Background(), []model.Message{model.UserMessage("hello")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Stop, out.Final.Text())
	// Output: completed ok
}
