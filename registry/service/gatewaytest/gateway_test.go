package gatewaytest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// token is the bearer token of the registry's one principal, which may
// publish any toolset, consume and call.
const token = "gateway-0123456789abcdef0123456789abcdef"

// stack is the registry server on loopback, the provider endpoint its
// calls run on, the publisher's client, and the calls the provider ran.
type stack struct {
	registry  *httptest.Server
	provider  *httptest.Server
	publisher *registry.Client

	mu    sync.Mutex
	calls []registry.CallRequest
}

// newStack starts the registry server (service.New, its handler on
// httptest) and a provider whose executor answers every call with the
// tool and the payload it got.
func newStack(t *testing.T) *stack {
	t.Helper()
	s := &stack{}
	creds, err := access.Parse(strings.NewReader("gateway token:" + token + " publish:* consume call"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	s.registry = httptest.NewServer(svc.Handler())
	t.Cleanup(func() { s.registry.Close(); _ = svc.Close() })
	s.provider = httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		s.mu.Lock()
		s.calls = append(s.calls, *call)
		s.mu.Unlock()
		return json.Marshal(map[string]any{"ran": call.Tool, "payload": call.Payload})
	}), 0))
	t.Cleanup(s.provider.Close)
	if s.publisher, err = registry.NewClient(s.registry.URL, registry.WithBearerToken(token)); err != nil {
		t.Fatal(err)
	}
	return s
}

// publish registers ts with the provider as its endpoint.
func (s *stack) publish(t *testing.T, ts tools.ToolsetSchema, revision string) registry.Registration {
	t.Helper()
	res, err := s.publisher.Publish(context.Background(), &registry.PublishRequest{Toolset: ts, Revision: revision, Endpoint: s.provider.URL})
	if err != nil {
		t.Fatal(err)
	}
	return res.Registration
}

// ran returns the tools of the calls the provider ran.
func (s *stack) ran() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.calls {
		out = append(out, string(c.Tool))
	}
	return out
}

// newGateway serves the upstreams through a gateway, closed with the
// test.
func newGateway(t *testing.T, ups ...gateway.Upstream) *gateway.Gateway {
	t.Helper()
	g, err := gateway.New(ups, gateway.Options{Mode: gateway.ModeBoth, ListInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// httpClient is the gateway's registry client: the runtime's client over
// HTTP to the registry server, with the principal's token.
func (s *stack) httpClient(t *testing.T) *runtimeclient.Client {
	t.Helper()
	c, err := runtimeclient.NewHTTP(s.registry.URL, registry.WithBearerToken(token))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// session is a go-sdk client session of a gateway and the list_changed
// notifications it received.
type session struct {
	*sdk.ClientSession
	changed chan struct{}
}

// connect serves one client session of g over in-memory transports.
func connect(t *testing.T, g *gateway.Gateway) *session {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	if _, err := g.NewServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	s := &session{changed: make(chan struct{}, 16)}
	cl := sdk.NewClient(&sdk.Implementation{Name: "gatewaytest", Version: "v1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.changed <- struct{}{} },
	})
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	s.ClientSession = cs
	return s
}

// names lists the session's tools/list, sorted.
func (s *session) names(t *testing.T) []string {
	t.Helper()
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	slices.Sort(out)
	return out
}

// call calls a tool and returns its text and whether it is an error.
func (s *session) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error(), true
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// search calls tool_search and decodes its answer.
func (s *session) search(t *testing.T, query string, names ...string) gateway.SearchAnswer {
	t.Helper()
	args := map[string]any{"query": query}
	if len(names) > 0 {
		args["names"] = names
	}
	out, isErr := s.call(t, "tool_search", args)
	if isErr {
		t.Fatalf("tool_search: %s", out)
	}
	var ans gateway.SearchAnswer
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("tool_search answer %q: %v", out, err)
	}
	return ans
}

// waitChanged waits for a list_changed notification.
func (s *session) waitChanged(t *testing.T) {
	t.Helper()
	select {
	case <-s.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
}

func found(ans gateway.SearchAnswer) []string {
	var out []string
	for _, f := range ans.Tools {
		out = append(out, f.Name)
	}
	return out
}

func billingTool(name, description string) tools.ToolSchema {
	return tools.ToolSchema{
		Name:        tools.Ident("billing." + name),
		Description: description,
		Payload:     json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"],"additionalProperties":false}`),
	}
}

// billing is the toolset the provider publishes.
func billing() tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: "billing", Description: "Billing", Version: "1.4.0", Tools: []tools.ToolSchema{
		billingTool("create_invoice", "Create an invoice for a customer."),
		billingTool("list_invoices", "List the invoices of a customer."),
		billingTool("refund_payment", "Refund the payment of a customer's invoice."),
	}}
}
