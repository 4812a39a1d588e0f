package gatewaytest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestRegistryBehindGateway serves a toolset of the registry server
// through the gateway, read over HTTP: the session lists the search tools
// only, a search finds a deferred registry tool and the session receives
// list_changed, the list then holds it, and a call runs on the provider
// under the registration's token and its result reaches the client. Once
// the provider withdraws the toolset, a call of the found tool is an error
// naming the toolset and the tool, the provider runs nothing more, and a
// search names the toolset as unavailable.
func TestRegistryBehindGateway(t *testing.T) {
	s := newStack(t)
	reg := s.publish(t, billing(), "r1")
	g := newGateway(t, gateway.Upstream{Name: "billing", Registry: s.httpClient(t), Version: "1.4.0", Deny: []string{"refund_payment"}})
	c := connect(t, g)

	if got, want := c.names(t), []string{"call_tool", "tool_search"}; !slices.Equal(got, want) {
		t.Fatalf("first tools/list = %v, want %v", got, want)
	}
	ans := c.search(t, "create an invoice")
	if got := found(ans); !slices.Contains(got, "billing_create_invoice") {
		t.Fatalf("search found %v (unavailable %+v)", got, ans.Unavailable)
	}
	for _, f := range ans.Tools {
		if f.Name == "billing_create_invoice" && !strings.Contains(string(f.InputSchema), `"customer"`) {
			t.Errorf("found input schema %s", f.InputSchema)
		}
	}
	c.waitChanged(t)
	if got := c.names(t); !slices.Contains(got, "billing_create_invoice") {
		t.Fatalf("tools/list after the search = %v", got)
	}

	cases := []struct {
		tool string
		args any
	}{
		{"billing_create_invoice", map[string]any{"customer": "acme"}},
		{"call_tool", map[string]any{"name": "billing_list_invoices", "arguments": map[string]any{"customer": "initech"}}},
	}
	for _, tc := range cases {
		out, isErr := c.call(t, tc.tool, tc.args)
		if isErr {
			t.Fatalf("%s: %s", tc.tool, out)
		}
		var res struct {
			Ran     string          `json:"ran"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || !strings.HasPrefix(res.Ran, "billing.") || !strings.Contains(string(res.Payload), `"customer"`) {
			t.Errorf("%s answered %q (%v)", tc.tool, out, err)
		}
	}
	if got, want := s.ran(), []string{"billing.create_invoice", "billing.list_invoices"}; !slices.Equal(got, want) {
		t.Fatalf("the provider ran %v, want %v", got, want)
	}
	s.mu.Lock()
	for _, call := range s.calls {
		if call.Token != reg.Token {
			t.Errorf("call %s carries token %q, want the registration's %q", call.Tool, call.Token, reg.Token)
		}
	}
	s.mu.Unlock()

	// The provider withdraws the toolset. The session still lists the tool
	// it found; its call is refused by the registry and never reaches the
	// provider.
	if err := s.publisher.Withdraw(context.Background(), &registry.WithdrawRequest{Toolset: "billing", Token: reg.Token}); err != nil {
		t.Fatal(err)
	}
	out, isErr := c.call(t, "billing_create_invoice", map[string]any{"customer": "acme"})
	if want := `registry toolset "billing" tool "create_invoice"`; !isErr || !strings.Contains(out, want) || strings.Contains(out, s.registry.URL) {
		t.Errorf("call after the withdrawal = %q (error %v), want an error with %q and without the registry's address", out, isErr, want)
	}
	if got := s.ran(); len(got) != 2 {
		t.Errorf("the provider ran %v after the withdrawal", got)
	}
	// A search reads the registry again (in the background, the list being
	// older than ListInterval) and names the toolset as unavailable.
	deadline := time.Now().Add(10 * time.Second)
	for {
		ans := c.search(t, "invoice")
		if i := slices.IndexFunc(ans.Unavailable, func(p gateway.Problem) bool { return p.Server == "billing" }); i >= 0 {
			if want := "the registry holds no such toolset"; !strings.Contains(ans.Unavailable[i].Error, want) {
				t.Errorf("unavailable = %+v, want %q", ans.Unavailable[i], want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no search named the withdrawn toolset: last answer %+v", ans)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
