// The quickstart itself: registry, MCP server, executors, agent, one run.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/goa-discovery/goa-discovery/example/gen/agents/analyst"
	"github.com/goa-discovery/goa-discovery/example/gen/registries/company"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/docs"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/planner"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
)

// instructions is the analyst's system prompt.
const instructions = "You are a support analyst. You start with only the " + runtime.DiscoveryToolName + " tool: " +
	"search for the tools you need, call them, and answer from their results. Be brief."

// run starts the registry, the documentation's MCP server and the model
// endpoint cfg asks for, runs the analyst agent on cfg.question and prints
// every step to w.
func run(ctx context.Context, cfg config, w io.Writer) (err error) {
	log := &requestLog{}
	provider, modelID := cfg.provider, cfg.model
	var ep endpoint
	var replay *replayServer
	if provider == providerReplay {
		provider, modelID = cfg.replayProvider, setups[cfg.replayProvider].model
		if replay, err = startReplay(provider, log); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, replay.close()) }()
		ep = endpoint{url: replay.url + setups[provider].basePath, apiKey: "replay-no-key"}
		fmt.Fprintf(w, "replaying recorded %s responses (model %s) from %s: offline, no API key used\n", provider, modelID, replay.url)
	} else {
		if modelID == "" {
			modelID = setups[provider].model
		}
		if ep, err = liveEndpoint(provider, cfg.getenv, log); err != nil {
			return err
		}
		fmt.Fprintf(w, "asking %s model %s\n", provider, modelID)
	}
	client, err := newModelClient(provider, ep, false)
	if err != nil {
		return err
	}

	reg, err := startCompanyRegistry(ctx)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, reg.close()) }()
	fmt.Fprintf(w, "registry %q serving at %s (in process)\n", company.Name, reg.url)
	fmt.Fprintf(w, "  accounts service at %s published toolset %s@%s: %d tools, token %s\n",
		reg.endpoint, reg.published.Toolset.Name, reg.published.Toolset.Version, len(reg.published.Toolset.Tools), reg.published.Token)

	rt := runtime.New()
	if err := rt.RegisterRegistry(company.Name, runtimeclient.New(reg.client)); err != nil {
		return err
	}
	if err := tickets.Register(rt, newTicketDesk()); err != nil {
		return err
	}
	manual, err := startManual(ctx, rt)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, manual.close()) }()
	fmt.Fprintf(w, "MCP server %q serving at %s (in process, streamable HTTP)\n", docs.Server, manual.url)
	fmt.Fprintf(w, "  toolset %s registered from its tools/list: %d tools, schemas checked against the design\n", docs.Name, len(docs.ToolSchemas()))
	def := analyst.Definition()
	fmt.Fprintf(w, "local toolset %s registered; agent %s starts with %d immediate tools, %d deferred tools (%s, %s) and registry %s (deferred)\n",
		tickets.Name, analyst.Name, len(def.Immediate), len(def.Deferred), tickets.Name, docs.Name, company.Name)
	caps := client.Capabilities(modelID)
	fmt.Fprintf(w, "discovery on %s %s: %s\n\n", provider, modelID, caps.Discovery)

	tr := &tracer{
		next:   planner.New(client, modelID, planner.WithInstructions(instructions), planner.WithMaxOutputTokens(cfg.maxTokens)),
		log:    log,
		w:      w,
		native: caps.Discovery == model.DiscoveryNative,
		replay: replay != nil,
	}
	if err := analyst.RegisterAnalystAgent(ctx, rt, analyst.AnalystAgentConfig{Planner: tr}); err != nil {
		return err
	}
	fmt.Fprintf(w, "user: %s\n", cfg.question)
	out, runErr := analyst.NewClient(rt).Run(ctx, []model.Message{model.UserMessage(cfg.question)})
	if out != nil {
		tr.finish(out)
	}
	if out != nil && cfg.export != "" {
		if err := exportRun(ctx, rt, out.RunID, cfg.export); err != nil {
			return errors.Join(runErr, err)
		}
	}
	if runErr != nil {
		return fmt.Errorf("run: %w", runErr)
	}
	if replay != nil {
		return replay.check()
	}
	return nil
}
