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

	"github.com/goa-discovery/goa-discovery/example/gen/agents/analyst"
	"github.com/goa-discovery/goa-discovery/example/gen/registries/company"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/escalation"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/knowledge"
	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/tickets"
	"github.com/goa-discovery/goa-discovery/runtime"
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

// scriptedAnalyst is a planner test double for the analyst agent: it
// searches for a refund tool, calls the one discovered, then finishes.
type scriptedAnalyst struct {
	t  *testing.T
	mu sync.Mutex
}

func (p *scriptedAnalyst) Plan(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
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
	url, stop := startRegistry(t, "--data", t.TempDir())
	defer stop()
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		var args struct {
			PaymentID string `json:"payment_id"`
		}
		if err := json.Unmarshal(call.Payload, &args); err != nil {
			return nil, err
		}
		return json.RawMessage(fmt.Sprintf(`{"refund_id":"re_%s"}`, args.PaymentID)), nil
	}), 0))
	defer provider.Close()

	client, err := registry.NewClient(url)
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
	if err := analyst.RegisterAnalystAgent(ctx, rt, analyst.AnalystAgentConfig{Planner: &scriptedAnalyst{t: t}}); err != nil {
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

// TestExampleGeneratedToolsetsPublish publishes every generated toolset of
// the example, as a provider serving them would: the registry compiles
// them and computes the fingerprint contract.Fingerprint gives, which
// differs from the generated SchemaFingerprint (no toolset annotations).
func TestExampleGeneratedToolsetsPublish(t *testing.T) {
	ctx := context.Background()
	url, stop := startRegistry(t)
	defer stop()
	client, err := registry.NewClient(url)
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
