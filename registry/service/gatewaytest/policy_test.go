package gatewaytest

import (
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"
)

// TestRegistryDeniedTool tries each way to reach a registry tool the
// upstream's deny or allow list removes, for a toolset and for the whole
// registry: finding it by keywords and by name, listing it after a search
// that would find it, and calling it directly and through call_tool. Each
// fails and the provider runs no call, while an allowed tool of the same
// toolset is found, listed and runs.
func TestRegistryDeniedTool(t *testing.T) {
	cases := []struct {
		name string
		up   func(*stack, *testing.T) gateway.Upstream
	}{
		{"deny", func(s *stack, t *testing.T) gateway.Upstream {
			return gateway.Upstream{Name: "billing", Registry: s.httpClient(t), Deny: []string{"refund_payment"}}
		}},
		{"allow", func(s *stack, t *testing.T) gateway.Upstream {
			return gateway.Upstream{Name: "billing", Registry: s.httpClient(t), Allow: []string{"create_invoice", "list_invoices"}}
		}},
		{"whole registry deny", func(s *stack, t *testing.T) gateway.Upstream {
			return gateway.Upstream{Name: "company", Registry: s.httpClient(t), AllToolsets: true, Deny: []string{"billing.refund_payment"}}
		}},
	}
	const hidden = "billing_refund_payment"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t)
			s.publish(t, billing(), "r1")
			c := connect(t, newGateway(t, tc.up(s, t)))
			ans := c.search(t, "refund the payment of an invoice", hidden)
			if got := found(ans); slices.Contains(got, hidden) || !slices.Contains(got, "billing_create_invoice") {
				t.Errorf("search found %v (unavailable %+v)", got, ans.Unavailable)
			}
			if !slices.Equal(ans.NotFound, []string{hidden}) {
				t.Errorf("not_found = %v, want [%s]", ans.NotFound, hidden)
			}
			c.waitChanged(t)
			if got := c.names(t); slices.Contains(got, hidden) || !slices.Contains(got, "billing_create_invoice") {
				t.Errorf("tools/list = %v", got)
			}
			for _, call := range []struct {
				tool string
				args any
			}{
				{hidden, map[string]any{"customer": "acme"}},
				{"call_tool", map[string]any{"name": hidden, "arguments": map[string]any{"customer": "acme"}}},
			} {
				if out, isErr := c.call(t, call.tool, call.args); !isErr {
					t.Errorf("calling %s through %s = %q, want a refusal", hidden, call.tool, out)
				}
			}
			if got := s.ran(); len(got) != 0 {
				t.Errorf("the provider ran %v", got)
			}
			if out, isErr := c.call(t, "billing_create_invoice", map[string]any{"customer": "acme"}); isErr || !strings.Contains(out, `"ran":"billing.create_invoice"`) {
				t.Errorf("allowed tool = %q (error %v)", out, isErr)
			}
			if got, want := s.ran(), []string{"billing.create_invoice"}; !slices.Equal(got, want) {
				t.Errorf("the provider ran %v, want %v", got, want)
			}
		})
	}
}
