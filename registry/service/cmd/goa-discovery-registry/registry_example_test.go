package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/docserver"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/analyst"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/desk"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/senior"
	"github.com/goa-discovery/goa-discovery/example/gen/registries/company"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/docs"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/escalation"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// unusedTickets is a tickets.Executor test double for runs that never call
// a ticket tool: every call fails the test.
type unusedTickets struct{ t *testing.T }

func (u unusedTickets) fail(tool string) error {
	u.t.Errorf("ticket tool %s called", tool)
	return errors.New("not expected in this test")
}

func (u unusedTickets) GetTicket(context.Context, *tickets.GetTicketArgs) (*tickets.Ticket, error) {
	return nil, u.fail("get_ticket")
}

func (u unusedTickets) SearchTickets(context.Context, *tickets.SearchTicketsArgs) ([]*tickets.Ticket, error) {
	return nil, u.fail("search_tickets")
}

func (u unusedTickets) UpdateTicket(context.Context, *tickets.UpdateTicketArgs) (*tickets.Ticket, error) {
	return nil, u.fail("update_ticket")
}

func (u unusedTickets) MergeTickets(context.Context, *tickets.MergeTicketsArgs) (*tickets.Ticket, error) {
	return nil, u.fail("merge_tickets")
}

func (u unusedTickets) CloseTicket(context.Context, *tickets.CloseTicketArgs) error {
	return u.fail("close_ticket")
}

// unusedCustomers is a customers.Executor test double for runs that never
// call a customer tool: every call fails the test.
type unusedCustomers struct{ t *testing.T }

func (u unusedCustomers) GetCustomer(context.Context, *customers.GetCustomerArgs) (*customers.Customer, error) {
	u.t.Error("customer tool get_customer called")
	return nil, errors.New("not expected in this test")
}

func (u unusedCustomers) CustomerUsage(context.Context, *customers.CustomerUsageArgs) (map[string]int64, error) {
	u.t.Error("customer tool customer_usage called")
	return nil, errors.New("not expected in this test")
}

// unusedKnowledge is a knowledge.Executor test double for runs that never
// call a knowledge tool: every call fails the test.
type unusedKnowledge struct{ t *testing.T }

func (u unusedKnowledge) SearchArticles(context.Context, *knowledge.SearchArticlesArgs) ([]*knowledge.Article, error) {
	u.t.Error("knowledge tool search_articles called")
	return nil, errors.New("not expected in this test")
}

func (u unusedKnowledge) GetArticle(context.Context, *knowledge.GetArticleArgs) (string, error) {
	u.t.Error("knowledge tool get_article called")
	return "", errors.New("not expected in this test")
}

// paymentsToolset is a runtime-authored toolset a payments provider
// publishes in the company registry.
func paymentsToolset(version string) tools.ToolsetSchema {
	return tools.ToolsetSchema{
		Name:        "payments",
		Description: "Payments and refunds",
		Version:     version,
		Tools: []tools.ToolSchema{{
			Name:        "payments.refund_payment",
			Description: "Refund a customer payment in full or in part",
			Payload:     json.RawMessage(`{"type":"object","properties":{"payment_id":{"type":"string"},"amount_cents":{"type":"integer","minimum":1}},"required":["payment_id"],"additionalProperties":false}`),
			Result:      json.RawMessage(`{"type":"object","properties":{"refund_id":{"type":"string"}},"required":["refund_id"]}`),
		}},
	}
}

// scriptedRefund is a planner test double for the example's agents that
// use the registry: it searches for a refund tool, calls the one
// discovered, then finishes.
type scriptedRefund struct {
	t  *testing.T
	mu sync.Mutex
}

func (p *scriptedRefund) Plan(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var part model.Part
	switch in.Agent.Step() {
	case 1:
		part = model.DiscoveryCallPart(model.DiscoveryCall{ID: "find", Query: "refund a payment"})
	case 2:
		part = model.TextPart("no refund tool was discovered")
		for _, d := range in.Agent.AdvertisedToolDefinitions() {
			if strings.Contains(d.Name, "refund_payment") {
				part = model.ToolCallPart(model.ToolCall{ID: "refund", Name: d.Name, Arguments: json.RawMessage(`{"payment_id":"pay_1","amount_cents":500}`)})
			}
		}
	default:
		part = model.TextPart("refunded")
	}
	return model.NewResponse(model.AssistantMessage(part), model.FinishStop, model.Usage{})
}

func TestExampleAnalystRunsAgainstAServedRegistry(t *testing.T) {
	ctx := context.Background()
	provider := refundProvider(t)
	url, stop := startRegistry(t, "--data", t.TempDir(), "--allow-endpoint", provider.URL)
	defer stop()
	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	payments := paymentsToolset("2.3.0")
	fp, err := contract.Fingerprint(&payments)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := client.Publish(ctx, &registry.PublishRequest{Toolset: payments, Fingerprint: fp, Revision: "payments-42", Endpoint: provider.URL})
	if err != nil {
		t.Fatal(err)
	}

	rt := runtime.New()
	if err := rt.RegisterRegistry(company.Name, runtimeclient.New(client)); err != nil {
		t.Fatal(err)
	}
	if err := tickets.Register(rt, unusedTickets{t}); err != nil {
		t.Fatal(err)
	}
	manual, err := mcp.Connect(ctx, docs.Server, mcp.InMemory(docserver.New()))
	if err != nil {
		t.Fatal(err)
	}
	defer manual.Close()
	if err := docs.Register(ctx, rt, manual); err != nil {
		t.Fatal(err)
	}
	if err := analyst.RegisterAnalystAgent(ctx, rt, analyst.AnalystAgentConfig{Planner: &scriptedRefund{t: t}}); err != nil {
		t.Fatal(err)
	}
	out, err := analyst.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("Refund 5 euros of payment pay_1")})
	if err != nil {
		t.Fatal(err)
	}
	var content string
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil && p.ToolResult.CallID == "refund" {
				content = p.ToolResult.Content
			}
		}
	}
	if content != `{"refund_id":"re_pay_1"}` {
		t.Fatalf("refund result %q; messages: %+v", content, out.Messages)
	}
	if len(out.Calls) != 1 || out.Calls[0].Source.Token != string(pub.Registration.Token) || out.Calls[0].Source.Registry != company.Name {
		t.Fatalf("call records %+v, want one bound to %s", out.Calls, pub.Registration.Token)
	}
}

// refundProvider serves the payments toolset's refund tool on loopback.
func refundProvider(t *testing.T) *httptest.Server {
	t.Helper()
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		var args struct {
			PaymentID string `json:"payment_id"`
		}
		if err := json.Unmarshal(call.Payload, &args); err != nil {
			return nil, err
		}
		return json.RawMessage(fmt.Sprintf(`{"refund_id":"re_%s"}`, args.PaymentID)), nil
	}), 0))
	t.Cleanup(provider.Close)
	return provider
}

// TestExampleDeskRunsAgainstAServedRegistry runs the desk agent, which pins
// the registry's payments toolset to version 2.3.0, against a registry the
// test serves: the pinned version is used; another current version, or no
// registration, fails the step with the registry's own error.
func TestExampleDeskRunsAgainstAServedRegistry(t *testing.T) {
	cases := []struct {
		name    string
		version string // published payments version; empty publishes nothing
		want    error
	}{
		{"pinned version current", "2.3.0", nil},
		{"another version current", "2.4.0", registry.ErrVersionMismatch},
		{"not published", "", registry.ErrToolsetNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			provider := refundProvider(t)
			url, stop := startRegistry(t, "--allow-endpoint", provider.URL)
			defer stop()
			client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
			if err != nil {
				t.Fatal(err)
			}
			var token registry.Token
			if tc.version != "" {
				pub, err := client.Publish(ctx, &registry.PublishRequest{Toolset: paymentsToolset(tc.version), Revision: "payments-1", Endpoint: provider.URL})
				if err != nil {
					t.Fatal(err)
				}
				token = pub.Registration.Token
			}
			rt := runtime.New()
			if err := rt.RegisterRegistry(company.Name, runtimeclient.New(client)); err != nil {
				t.Fatal(err)
			}
			for _, err := range []error{
				tickets.Register(rt, unusedTickets{t}),
				customers.Register(rt, unusedCustomers{t}),
				knowledge.Register(rt, unusedKnowledge{t}),
				escalation.Register(rt),
				desk.RegisterDeskAgent(ctx, rt, desk.DeskAgentConfig{Planner: &scriptedRefund{t: t}}),
				// desk uses senior's exported escalation tool.
				senior.RegisterSeniorAgent(ctx, rt, senior.SeniorAgentConfig{Planner: &scriptedRefund{t: t}}),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
			out, err := desk.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("Refund 5 euros of payment pay_1")})
			if tc.want != nil {
				if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, tc.want) {
					t.Fatalf("run error = %v, want runtime.ErrCatalog and %v", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Calls) != 1 || out.Calls[0].Tool != "payments.refund_payment" || out.Calls[0].Source.Token != string(token) || out.Calls[0].Source.Version != "2.3.0" {
				t.Fatalf("call records %+v, want one refund bound to %s at 2.3.0", out.Calls, token)
			}
			var content string
			for _, m := range out.Messages {
				for _, p := range m.Parts {
					if p.ToolResult != nil && p.ToolResult.CallID == "refund" {
						content = p.ToolResult.Content
					}
				}
			}
			if content != `{"refund_id":"re_pay_1"}` {
				t.Fatalf("refund result %q", content)
			}
		})
	}
}

// TestExampleGeneratedToolsetsPublish publishes every generated toolset of
// the example, as a provider serving them would: the registry compiles
// them and computes the fingerprint contract.Fingerprint gives, which
// differs from the generated SchemaFingerprint (no toolset annotations).
func TestExampleGeneratedToolsetsPublish(t *testing.T) {
	ctx := context.Background()
	url, stop := startRegistry(t, "--allow-endpoint", "http://127.0.0.1:1/")
	defer stop()
	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	generated := []struct {
		toolset func() tools.ToolsetSchema
		schema  func(string) (tools.Fingerprint, error)
	}{
		{tickets.Toolset, tickets.SchemaFingerprint},
		{customers.Toolset, customers.SchemaFingerprint},
		{knowledge.Toolset, knowledge.SchemaFingerprint},
		{escalation.Toolset, escalation.SchemaFingerprint},
	}
	for _, g := range generated {
		ts := g.toolset()
		t.Run(ts.Name, func(t *testing.T) {
			fp, err := contract.Fingerprint(&ts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := client.Publish(ctx, &registry.PublishRequest{Toolset: ts, Fingerprint: fp, Revision: "gen-1", Endpoint: "http://127.0.0.1:1/"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Registration.Fingerprint != fp {
				t.Fatalf("registry fingerprint %s, contract.Fingerprint %s", res.Registration.Fingerprint, fp)
			}
			schemaFP, err := g.schema(ts.Name)
			if err != nil {
				t.Fatal(err)
			}
			if schemaFP == fp {
				t.Fatal("SchemaFingerprint equals the toolset fingerprint")
			}
			for i := range ts.Tools {
				if _, err := contract.Compile(&ts.Tools[i]); err != nil {
					t.Fatalf("generated tool does not compile: %v", err)
				}
			}
		})
	}
	cat, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Toolsets) != len(generated) {
		t.Fatalf("registry lists %d toolsets, want %d", len(cat.Toolsets), len(generated))
	}
}
