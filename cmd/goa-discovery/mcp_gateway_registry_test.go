package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	"github.com/goa-discovery/goa-discovery/internal/registrytest"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// registryToolset is a toolset of the test registries: name's tools, each
// taking a customer.
func registryToolset(name, version string, tls ...[2]string) tools.ToolsetSchema {
	ts := tools.ToolsetSchema{Name: name, Version: version}
	for _, tl := range tls {
		ts.Tools = append(ts.Tools, tools.ToolSchema{
			Name:        tools.Ident(name + "." + tl[0]),
			Description: tl[1],
			Payload:     json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"]}`),
		})
	}
	return ts
}

// serveRegistry serves reg on loopback, refusing requests without token,
// and returns its URL.
func serveRegistry(t *testing.T, reg *registrytest.Registry, token string) string {
	t.Helper()
	srv := httptest.NewServer(reg.Handler(token))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestGatewayDocsRegistry runs the registry configuration of
// docs/gateway.md through the command, its registries' URLs replaced by
// two registries on loopback that take only their own bearer tokens: the
// whole registry's immediate tool is listed and runs, a search finds a
// tool of the billing toolset, the session receives list_changed, the
// list holds the tool and its call runs in the registry under its
// registration's token; the denied tool is never found, listed or run.
func TestGatewayDocsRegistry(t *testing.T) {
	blocks := fencedBlocks(readDoc(t, gatewayDoc), "json")
	if len(blocks) < 3 || !strings.Contains(blocks[2], `"registry"`) {
		t.Fatalf("%s shows no registry configuration as its third JSON block", gatewayDoc)
	}
	billing, partners := &registrytest.Registry{}, &registrytest.Registry{}
	billing.Publish(registryToolset("billing", "1.4.0",
		[2]string{"create_invoice", "Create an invoice for a customer."},
		[2]string{"list_invoices", "List the invoices of a customer."},
		[2]string{"refund_payment", "Refund the payment of a customer's invoice."}))
	partners.Publish(registryToolset("shipping", "2.0.0", [2]string{"track_parcel", "Track the parcel of a customer."}))
	config := strings.NewReplacer(
		"https://registry.example.com", serveRegistry(t, billing, "billing-t0ken"),
		"https://partners.example.com", serveRegistry(t, partners, "partners-t0ken"),
	).Replace(blocks[2])
	t.Setenv("REGISTRY_TOKEN", "billing-t0ken")
	t.Setenv("PARTNERS_TOKEN", "partners-t0ken")
	dir := filepath.Dir(npmservers.Path(t, "mcp-server-everything"))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := startGateway(t, config)

	if got, want := c.names(t), []string{"shipping_track_parcel", "tool_search"}; !slices.Equal(sortedCopy(got), want) {
		t.Fatalf("first tools/list = %v, want %v", got, want)
	}
	if out, isErr := c.call(t, "shipping_track_parcel", map[string]any{"customer": "acme"}); isErr || !strings.Contains(out, `"tool":"shipping.track_parcel"`) {
		t.Errorf("immediate registry tool = %q (error %v)", out, isErr)
	}
	const hidden = "billing_refund_payment"
	ans := c.search(t, map[string]any{"query": "create an invoice refund payment", "names": []string{hidden}})
	if got := foundTools(ans); !slices.Contains(got, "billing_create_invoice") || slices.Contains(got, hidden) {
		t.Fatalf("search found %v (unavailable %+v)", got, ans.Unavailable)
	}
	if !slices.Equal(ans.NotFound, []string{hidden}) {
		t.Errorf("not_found = %v, want [%s]", ans.NotFound, hidden)
	}
	for _, p := range ans.Unavailable {
		if p.Server == "billing" || p.Server == "partners" {
			t.Errorf("unavailable %+v", p)
		}
	}
	c.waitChanged(t)
	if got := c.names(t); !slices.Contains(got, "billing_create_invoice") || slices.Contains(got, hidden) {
		t.Errorf("tools/list after the search = %v", got)
	}
	out, isErr := c.call(t, "billing_create_invoice", map[string]any{"customer": "acme"})
	if isErr || !strings.Contains(out, `"tool":"billing.create_invoice"`) || !strings.Contains(out, `"customer":"acme"`) {
		t.Errorf("billing_create_invoice = %q (error %v)", out, isErr)
	}
	if out, isErr := c.call(t, hidden, map[string]any{"customer": "acme"}); !isErr {
		t.Errorf("the denied tool answered %q", out)
	}
	if got, want := billing.Called(), []string{"billing.create_invoice"}; !slices.Equal(got, want) {
		t.Errorf("the billing registry ran %v, want %v", got, want)
	}
	for _, call := range billing.Calls() {
		if want := billing.Token("billing"); call.Token != want {
			t.Errorf("call %s carries token %q, want the registration's %q", call.Tool, call.Token, want)
		}
	}
	if got, want := partners.Called(), []string{"shipping.track_parcel"}; !slices.Equal(got, want) {
		t.Errorf("the partners registry ran %v, want %v", got, want)
	}
}

// TestMCPGatewayRegistryToken: a registry entry whose variable holds a
// token the registry refuses is named in the search's unavailable, and
// the registry runs nothing.
func TestMCPGatewayRegistryToken(t *testing.T) {
	reg := &registrytest.Registry{}
	reg.Publish(registryToolset("billing", "1.4.0", [2]string{"create_invoice", "Create an invoice for a customer."}))
	url := serveRegistry(t, reg, "right-t0ken")
	t.Setenv("GATEWAY_TEST_REGISTRY_TOKEN", "wrong-t0ken")
	c := startGateway(t, `{"mcpServers":{"billing":{"registry":"`+url+`","toolset":"billing","token_env":"GATEWAY_TEST_REGISTRY_TOKEN"}}}`)
	ans := c.search(t, map[string]any{"query": "invoice"})
	if len(ans.Tools) != 0 || len(ans.Unavailable) != 1 || ans.Unavailable[0].Server != "billing" || strings.Contains(ans.Unavailable[0].Error, url) {
		t.Errorf("search = %+v, want billing unavailable, without the registry's address", ans)
	}
	if got := reg.Called(); len(got) != 0 {
		t.Errorf("the registry ran %v", got)
	}
}

// TestMCPGatewayRegistryRefused: a registry entry the gateway cannot use
// stops it with exit status 2 and an error naming the entry and the key,
// before it connects to anything (the non-loopback host is never dialed).
func TestMCPGatewayRegistryRefused(t *testing.T) {
	t.Setenv("GATEWAY_TEST_REGISTRY_TOKEN", "t0ken")
	cases := []struct {
		name, entry, want string
	}{
		{"token not set", `"billing":{"registry":"http://127.0.0.1:1","toolset":"billing","token_env":"GATEWAY_TEST_UNSET_TOKEN"}`,
			`gateway: invalid configuration: mcpServers "billing": "token_env": GATEWAY_TEST_UNSET_TOKEN is not set in the gateway's environment`},
		{"token over plain http", `"billing":{"registry":"http://registry.example.com","toolset":"billing","token_env":"GATEWAY_TEST_REGISTRY_TOKEN"}`,
			`mcpServers "billing": "registry": registry client: http://registry.example.com is plain http to a host that is not loopback`},
		{"toolset named otherwise", `"pay":{"registry":"https://registry.example.com","toolset":"billing"}`,
			`mcpServers "pay": "toolset": "billing" under the entry "pay"`},
		{"server keys", `"billing":{"registry":"https://registry.example.com","toolset":"billing","url":"https://registry.example.com/mcp"}`,
			`mcpServers "billing": "url" is for an MCP server entry, not a "registry" entry`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "gateway.json")
			if err := os.WriteFile(file, []byte(`{"mcpServers":{`+tc.entry+`}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := runMCPGateway([]string{"--config", file}, strings.NewReader(""), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q, want 2 and %q", code, stderr.String(), tc.want)
			}
		})
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
