package main

// The registry step: the helpdesk publishes its tickets toolset in the
// company registry, with an endpoint that executes the calls the registry
// forwards (the generated tickets.RegistryExecutor over the same ticketBook),
// and the analyst agent finds and calls the tools there.

import (
	"context"
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
	// tickets.RegistryExecutor serves the same typed executor as tickets.Register.
	provider := &http.Server{Handler: registry.ProviderHandler(tickets.RegistryExecutor(book), 0), ReadHeaderTimeout: 10 * time.Second}
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
