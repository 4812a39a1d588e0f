package main

// The registry step: the helpdesk publishes its tickets toolset in the
// company registry, with an endpoint that executes the calls the registry
// forwards, and the analyst agent finds and calls the tools there.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"

	"example.com/helpdesk/gen/agents/analyst"
	"example.com/helpdesk/gen/toolsets/tickets"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
)

// runAnalyst publishes the tickets toolset in the registry at registryURL
// and runs the analyst agent, which uses the whole registry.
func runAnalyst(ctx context.Context, registryURL string, book ticketBook) (*runtime.RunOutput, error) {
	// The provider endpoint: the registry forwards admitted calls to it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	provider := &http.Server{Handler: registry.ProviderHandler(book, 0), ReadHeaderTimeout: 10 * time.Second}
	go provider.Serve(ln)
	defer provider.Close()

	company, err := registry.NewClient(registryURL)
	if err != nil {
		return nil, err
	}
	toolset := tickets.Toolset() // the generated schemas
	toolset.Version = "1.0.0"
	fingerprint, err := contract.Fingerprint(&toolset)
	if err != nil {
		return nil, err
	}
	_, err = company.Publish(ctx, &registry.PublishRequest{
		Toolset: toolset, Fingerprint: fingerprint, Revision: "helpdesk-1", Endpoint: "http://" + ln.Addr().String(),
	})
	if err != nil {
		return nil, fmt.Errorf("publish tickets: %w", err)
	}

	rt := runtime.New()
	if err := rt.RegisterRegistry("company", runtimeclient.New(company)); err != nil {
		return nil, err
	}
	if err := analyst.RegisterAnalystAgent(ctx, rt, analyst.AnalystAgentConfig{Planner: scripted}); err != nil {
		return nil, err
	}
	return analyst.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("Which open ticket is about an invoice?")})
}

// ExecuteTool executes a call that the registry forwards (registry.Executor),
// decoding its arguments and encoding its result with the generated codecs.
func (b ticketBook) ExecuteTool(ctx context.Context, call *registry.CallRequest) (json.RawMessage, error) {
	spec, ok := tickets.Spec(call.Tool)
	if !ok {
		return nil, fmt.Errorf("no tool %s", call.Tool)
	}
	args, err := spec.Payload.Decode(call.Payload)
	if err != nil {
		return nil, err
	}
	var result any
	switch args := args.(type) {
	case tickets.TicketID:
		result, err = b.GetTicket(ctx, &args)
	case tickets.SearchTicketsArgs:
		result, err = b.SearchTickets(ctx, &args)
	case tickets.CloseTicketArgs:
		result, err = b.CloseTicket(ctx, &args)
	default:
		return nil, fmt.Errorf("%s: arguments of type %T", call.Tool, args)
	}
	if err != nil {
		return nil, err
	}
	return spec.Result.Encode(result)
}
