// The -check mode: one discovery round trip per rendering, reported as the
// provider answered it, for a user who wants to see that native and
// emulated discovery work with their key and model.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/docs"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// errCheckFailed is returned when a rendering's round trip failed.
var errCheckFailed = errors.New("check failed")

// checkRendering is one way an adapter renders discovery.
type checkRendering struct {
	name    string
	emulate bool
}

// checkRenderings lists the renderings -check tries for provider: native
// and emulated, or emulated alone where the adapter has no other.
func checkRenderings(provider string) []checkRendering {
	if provider == providerOpenAIChat {
		return []checkRendering{{name: "emulated"}}
	}
	return []checkRendering{{name: "native"}, {name: "emulated", emulate: true}}
}

// checkCatalog is the deferred catalog of the check: the customers,
// tickets and docs toolsets, as the analyst finds them.
func checkCatalog() (*discovery.Catalog, error) {
	var entries []discovery.Entry
	for _, ts := range slices.Concat(customers.ToolSchemas(), tickets.ToolSchemas(), docs.ToolSchemas()) {
		e, err := discovery.EntryFromSchema(&ts)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return discovery.NewCatalog(entries, nil)
}

// runCheck runs the round trip of every rendering of the provider cfg
// names (live, or the replayed recordings) and reports each to w.
func runCheck(ctx context.Context, cfg config, w io.Writer) error {
	cat, err := checkCatalog()
	if err != nil {
		return err
	}
	provider, modelID := cfg.provider, cfg.model
	replay := provider == providerReplay
	if replay {
		provider, modelID = cfg.replayProvider, setups[cfg.replayProvider].model
	} else if modelID == "" {
		modelID = setups[provider].model
	}
	failed := 0
	for _, r := range checkRenderings(provider) {
		log := &requestLog{}
		var ep endpoint
		var srv *replayServer
		if replay {
			if srv, err = startReplay(provider, log); err != nil {
				return err
			}
			ep = endpoint{url: srv.url + setups[provider].basePath, apiKey: "replay-no-key"}
		} else if ep, err = liveEndpoint(provider, cfg.getenv, log); err != nil {
			return err
		}
		client, err := newModelClient(provider, ep, r.emulate)
		if err != nil {
			return err
		}
		source := "asking"
		if replay {
			source = "replaying recordings of"
		}
		fmt.Fprintf(w, "check %s: %s %s model %s, discovery %s\n", r.name, source, provider, modelID, client.Capabilities(modelID).Discovery)
		if err := checkRoundTrip(ctx, client, modelID, cfg, cat, log, w); err != nil {
			fmt.Fprintf(w, "  FAILED: %v\n", err)
			failed++
		} else {
			fmt.Fprintf(w, "  ok: the provider searched, got the result and answered\n")
		}
		if srv != nil {
			if err := srv.close(); err != nil {
				return err
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d renderings", errCheckFailed, failed, len(checkRenderings(provider)))
	}
	return nil
}

// checkRoundTrip sends the question with discovery on, answers the
// discovery calls from cat, sends the history again and reports both
// answers.
func checkRoundTrip(ctx context.Context, client model.Client, modelID string, cfg config, cat *discovery.Catalog, log *requestLog, w io.Writer) error {
	history := []model.Message{model.SystemMessage(instructions), model.UserMessage(cfg.question)}
	ask := func(n int) (*model.Response, error) {
		req := &model.Request{Model: modelID, Messages: history, Discovery: model.Discovery{Enabled: true}, MaxOutputTokens: cfg.maxTokens}
		if _, err := discovery.Prepare(req, client.Capabilities(modelID), cat); err != nil {
			return nil, fmt.Errorf("request %d: %w", n, err)
		}
		resp, err := client.Complete(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("request %d: %w", n, err)
		}
		sizes := log.all()
		fmt.Fprintf(w, "  request %d: %d bytes sent, %d tools declared; answer: %s\n", n, sizes[len(sizes)-1], len(req.Tools), describeAnswer(resp))
		return resp, nil
	}
	resp, err := ask(1)
	if err != nil {
		return err
	}
	calls := resp.DiscoveryCalls()
	if len(calls) == 0 {
		return errors.New("the first answer holds no discovery call")
	}
	history = append(history, resp.Message)
	var results []model.DiscoveryResult
	for _, c := range calls {
		r, err := cat.Answer(c, 5)
		if err != nil {
			return err
		}
		var names []string
		for _, s := range r.Tools {
			names = append(names, s.Name)
		}
		fmt.Fprintf(w, "  found for %s: %s\n", c.ID, strings.Join(names, ", "))
		results = append(results, r)
	}
	history = append(history, model.DiscoveryMessage(results...))
	if tcs := resp.ToolCalls(); len(tcs) > 0 {
		var out []model.ToolResult
		for _, c := range tcs {
			out = append(out, model.ToolResult{CallID: c.ID, Name: c.Name, Content: "Not run: this is a discovery check.", IsError: true})
		}
		history = append(history, model.ToolMessage(out...))
	}
	if _, err := ask(2); err != nil {
		return err
	}
	return nil
}

// describeAnswer says what a response holds.
func describeAnswer(resp *model.Response) string {
	var what []string
	for _, p := range resp.Message.Parts {
		switch {
		case p.DiscoveryCall != nil:
			c := p.DiscoveryCall
			s := "discovery call"
			if c.Hosted {
				s = "hosted search"
			}
			if c.Query != "" {
				s += fmt.Sprintf(" query %q", c.Query)
			}
			if len(c.Names) > 0 {
				s += " names " + strings.Join(c.Names, ", ")
			}
			what = append(what, s)
		case p.ToolCall != nil:
			what = append(what, "call "+p.ToolCall.Name)
		case p.Reasoning != nil:
			what = append(what, "reasoning")
		case p.Text != "":
			what = append(what, fmt.Sprintf("text %q", shorten(p.Text)))
		}
	}
	if len(what) == 0 {
		what = append(what, "nothing")
	}
	return fmt.Sprintf("%s (finish %s, provider %s)", strings.Join(what, "; "), resp.FinishReason, resp.ProviderReason)
}
