package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/example/gen/agents/senior"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// handbook is a knowledge.Executor test double holding one article.
type handbook struct{}

func (handbook) SearchArticles(context.Context, *knowledge.SearchArticlesArgs) ([]*knowledge.Article, error) {
	summary := "Create the new key, deploy it, then revoke the old one."
	return []*knowledge.Article{{Slug: "rotate-api-keys", Title: "Rotate API keys", Summary: &summary}}, nil
}

func (handbook) GetArticle(_ context.Context, args *knowledge.GetArticleArgs) (string, error) {
	return "", errors.New("no article " + args.Slug)
}

// accountBook is a customers.Executor test double over the accounts the
// quickstart publishes in its registry.
type accountBook struct{ *accounts }

func (b accountBook) GetCustomer(_ context.Context, args *customers.GetCustomerArgs) (*customers.Customer, error) {
	c, ok := b.customers[args.ID]
	if !ok {
		return nil, errors.New("no customer " + args.ID)
	}
	return &c, nil
}

func (b accountBook) CustomerUsage(_ context.Context, args *customers.CustomerUsageArgs) (map[string]int64, error) {
	return b.usage[args.ID], nil
}

// The design (example/design) declares agent "senior" with the tickets and
// customers tools immediate and the knowledge tools deferred; goa-discovery
// gen wrote example/gen from it. An application registers the generated
// toolsets with its executors, registers the agent with a planner and runs
// it. The planner here is a scripted stand-in for a model (package planner
// drives a real one): it searches, calls the tool it found, and answers.
func Example() {
	ctx := context.Background()
	rt := runtime.New()
	for _, err := range []error{
		tickets.Register(rt, newTicketDesk()),
		customers.Register(rt, accountBook{newAccounts()}),
		knowledge.Register(rt, handbook{}),
	} {
		if err != nil {
			fmt.Println(err)
			return
		}
	}

	scripted := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		var names []string
		for _, d := range in.Agent.AdvertisedToolDefinitions() {
			names = append(names, d.Name)
		}
		fmt.Printf("step %d declares %d tools, the last %s\n", in.Agent.Step(), len(names), names[len(names)-1])
		var part model.Part
		switch in.Agent.Step() {
		case 1:
			part = model.DiscoveryCallPart(model.DiscoveryCall{ID: "s1", Query: "knowledge base article about api keys"})
		case 2:
			part = model.ToolCallPart(model.ToolCall{ID: "c1", Name: "knowledge_search_articles", Arguments: json.RawMessage(`{"query":"rotate api key"}`)})
		default:
			part = model.TextPart("Follow \"Rotate API keys\": create the new key, deploy it, then revoke the old one.")
		}
		return model.NewResponse(model.AssistantMessage(part), model.FinishStop, model.Usage{})
	})
	if err := senior.RegisterSeniorAgent(ctx, rt, senior.SeniorAgentConfig{Planner: scripted}); err != nil {
		fmt.Println(err)
		return
	}

	out, err := senior.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("How does customer C-7 rotate an API key?")})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if r := p.DiscoveryResult; r != nil {
				for _, s := range r.Tools {
					fmt.Println("found", s.Name)
				}
			}
		}
	}
	for _, c := range out.Calls {
		fmt.Printf("called %s (%s toolset %s) with %s\n", c.Tool, c.Source.Kind, c.Source.Toolset, c.Arguments)
	}
	fmt.Println(out.Final.Text())
	// Output:
	// step 1 declares 8 tools, the last tool_search
	// step 2 declares 10 tools, the last knowledge_get_article
	// step 3 declares 10 tools, the last knowledge_get_article
	// found knowledge_search_articles
	// found knowledge_get_article
	// called knowledge.search_articles (local toolset knowledge) with {"query":"rotate api key"}
	// Follow "Rotate API keys": create the new key, deploy it, then revoke the old one.
}
