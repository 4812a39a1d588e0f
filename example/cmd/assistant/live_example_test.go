package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/goa-discovery/goa-discovery/example/gen/agents/analyst"
	"github.com/goa-discovery/goa-discovery/example/gen/registries/company"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/docs"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/planner"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
)

// The analyst agent of the example design on live services: the company
// registry over HTTP with a bearer token, the documentation's MCP server
// over streamable HTTP, and Claude planning each step. The quickstart (run)
// wires the same agent to services it starts itself. Compiled, not run: it
// needs those services and an API key.
func Example_live() {
	ctx := context.Background()
	rt := runtime.New() // in-memory engine by default
	// The generated tickets package binds a typed Executor, one method per tool.
	if err := tickets.Register(rt, newTicketDesk()); err != nil {
		log.Fatal(err)
	}
	// A registry the design names, over HTTP (or an in-process service.Service).
	registryClient, err := runtimeclient.NewHTTP(company.URL,
		registry.WithBearerToken(os.Getenv("REGISTRY_TOKEN"))) // scopes: consume call
	if err != nil {
		log.Fatal(err)
	}
	if err := rt.RegisterRegistry(company.Name, registryClient); err != nil {
		log.Fatal(err)
	}
	// The MCP server the design declares, connected under its design name;
	// docs.Register checks its tool list against the declared schemas.
	manual, err := mcp.Connect(ctx, docs.Server, mcp.HTTP("https://docs.example.com/mcp", nil))
	if err != nil {
		log.Fatal(err)
	}
	defer manual.Close()
	if err := docs.Register(ctx, rt, manual); err != nil {
		log.Fatal(err)
	}
	client := anthropic.New(anthropic.WithAPIKey(os.Getenv("ANTHROPIC_API_KEY")))
	err = analyst.RegisterAnalystAgent(ctx, rt, analyst.AnalystAgentConfig{
		Planner: planner.New(client, "claude-sonnet-4-5", planner.WithMaxOutputTokens(1024)),
	})
	if err != nil {
		log.Fatal(err)
	}
	out, err := analyst.NewClient(rt).Run(ctx,
		[]model.Message{model.UserMessage("What did customer C-7 use in November?")},
		runtime.WithLabels(map[string]string{"tenant": "acme"}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Final.Text())
}
