package example_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/gen/agents/senior"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// customerBook is a test double of the customers executor.
type customerBook struct{}

func (customerBook) GetCustomer(context.Context, *customers.GetCustomerArgs) (*customers.Customer, error) {
	return nil, errors.New("not used")
}

func (customerBook) CustomerUsage(context.Context, *customers.CustomerUsageArgs) (map[string]int64, error) {
	return nil, errors.New("not used")
}

// articleShelf is a test double of the knowledge executor that records the
// queries it is asked.
type articleShelf struct{ queries []string }

func (s *articleShelf) SearchArticles(_ context.Context, args *knowledge.SearchArticlesArgs) ([]*knowledge.Article, error) {
	s.queries = append(s.queries, args.Query)
	return []*knowledge.Article{{Slug: "refunds", Title: "How refunds work"}}, nil
}

func (*articleShelf) GetArticle(context.Context, *knowledge.GetArticleArgs) (string, error) {
	return "", errors.New("not used")
}

// scriptedPlanner is a test double of a model: it discovers the knowledge
// base search, calls it, then answers.
func scriptedPlanner(t *testing.T) runtime.Planner {
	return runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		switch in.Agent.Step() {
		case 1:
			declared := toolNames(in.Agent.AdvertisedToolDefinitions())
			if slices.Contains(declared, "knowledge_search_articles") {
				t.Errorf("deferred tool declared before discovery: %v", declared)
			}
			return model.NewResponse(model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{
				ID: "d1", Query: "search knowledge base articles",
			})), model.FinishToolCalls, model.Usage{})
		case 2:
			found := discovered(in.Messages)
			if len(found) == 0 || found[0] != "knowledge_search_articles" {
				t.Errorf("discovery found %v, want knowledge_search_articles first", found)
			}
			return model.NewResponse(model.AssistantMessage(model.ToolCallPart(model.ToolCall{
				ID: "c1", Name: "knowledge_search_articles", Arguments: json.RawMessage(`{"query":"refund"}`),
			})), model.FinishToolCalls, model.Usage{})
		default:
			return model.NewResponse(model.AssistantMessage(model.TextPart("See the refunds article.")), model.FinishStop, model.Usage{})
		}
	})
}

func toolNames(defs []model.ToolDefinition) []string {
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return names
}

func discovered(msgs []model.Message) []string {
	var names []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.DiscoveryResult != nil {
				for _, s := range p.DiscoveryResult.Tools {
					names = append(names, s.Name)
				}
			}
		}
	}
	return names
}

// TestRunWithGeneratedIndex runs the senior agent, whose knowledge tools are
// deferred, through the runtime: discovery answers from the generated search
// index and the call reaches the typed executor.
func TestRunWithGeneratedIndex(t *testing.T) {
	ctx := context.Background()
	rt := runtime.New()
	shelf := &articleShelf{}
	for _, err := range []error{
		tickets.Register(rt, ticketDesk{}),
		customers.Register(rt, customerBook{}),
		knowledge.Register(rt, shelf),
		senior.RegisterSeniorAgent(ctx, rt, senior.SeniorAgentConfig{Planner: scriptedPlanner(t)}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	out, err := senior.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("How do refunds work?")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !slices.Equal(shelf.queries, []string{"refund"}) {
		t.Fatalf("executor got queries %v, want [refund]", shelf.queries)
	}
	var result string
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				result = p.ToolResult.Content
			}
		}
	}
	if !strings.Contains(result, `"slug":"refunds"`) {
		t.Errorf("tool result %q does not hold the encoded article", result)
	}
}
