package gateway

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRegistryToolsetWalk serves a registry toolset next to an MCP server,
// through the go-sdk client: the immediate tool is listed from the start,
// a search finds a deferred registry tool and the session receives
// list_changed, the list then holds it, and a call with invalid arguments
// never reaches the registry while a valid one runs there under the
// registration's token. A new registration that removes the found tool
// reaches the session as list_changed once a search reads it.
func TestRegistryToolsetWalk(t *testing.T) {
	for _, rc := range registryClients {
		t.Run(rc.name, func(t *testing.T) { registryWalk(t, rc.client) })
	}
}

func registryWalk(t *testing.T, client func(*testing.T, *memRegistry) runtime.RegistryClient) {
	reg := &memRegistry{}
	reg.Publish(billing())
	g := newGateway(t, Options{Mode: ModeBoth, ListInterval: time.Millisecond},
		Upstream{Name: "billing", Registry: client(t, reg), Version: "v1",
			Deny: []string{"refund_payment"}, Immediate: []string{"list_invoices"}},
		inMemory("notes", fakeServer("notes", fakeTool{"create_note", "Create a note with a title and a body."})))
	c := connect(t, g)

	if got, want := c.names(t), []string{"billing_list_invoices", "call_tool", "tool_search"}; !slices.Equal(sorted(got), want) {
		t.Fatalf("first tools/list = %v, want %v", got, want)
	}
	ans := c.search(t, map[string]any{"query": "create invoice customer"})
	if got := foundNames(ans); len(got) == 0 || got[0] != "billing_create_invoice" {
		t.Fatalf("search found %v, want billing_create_invoice first", got)
	}
	if len(ans.Unavailable) > 0 {
		t.Errorf("unavailable = %+v", ans.Unavailable)
	}
	c.waitChanged(t)
	if got := c.names(t); !slices.Contains(got, "billing_create_invoice") {
		t.Fatalf("tools/list after the search = %v", got)
	}

	if out, isErr := c.call(t, "billing_create_invoice", map[string]any{"client": "acme"}); !isErr || !strings.Contains(out, "invalid arguments") {
		t.Errorf("call with invalid arguments = %q (error %v), want a refusal", out, isErr)
	}
	if got := reg.Called(); len(got) != 0 {
		t.Fatalf("the registry ran %v for a call with invalid arguments", got)
	}
	cases := []struct {
		tool string
		args map[string]any
	}{
		{"billing_create_invoice", map[string]any{"customer": "acme"}},
		{"call_tool", map[string]any{"name": "billing_list_invoices", "arguments": map[string]any{"customer": "acme"}}},
	}
	for _, tc := range cases {
		out, isErr := c.call(t, tc.tool, tc.args)
		if isErr {
			t.Fatalf("%s: %s", tc.tool, out)
		}
		var res struct {
			Tool    string          `json:"tool"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || !strings.HasPrefix(res.Tool, "billing.") || string(res.Payload) != `{"customer":"acme"}` {
			t.Errorf("%s answered %q (%v)", tc.tool, out, err)
		}
	}
	if got, want := reg.Called(), []string{"billing.create_invoice", "billing.list_invoices"}; !slices.Equal(got, want) {
		t.Errorf("the registry ran %v, want %v", got, want)
	}
	token := reg.Token("billing")
	calls := reg.Calls()
	for _, call := range calls {
		if call.Token != token {
			t.Errorf("call %s carries token %q, want the registration's %q", call.Tool, call.Token, token)
		}
	}
	if calls[0].CallID == calls[1].CallID {
		t.Errorf("two calls share the registry call ID %q", calls[0].CallID)
	}

	// A new registration without create_invoice: a search reads it (in the
	// background, the list being older than ListInterval; the registry
	// sends no notification, so the searches go on until a read saw it),
	// and the session, which found the tool, is told.
	v2 := billing()
	v2.Tools = slices.DeleteFunc(v2.Tools, func(t tools.ToolSchema) bool { return t.Name == "billing.create_invoice" })
	v2.Tools = append(v2.Tools, billingTool("void_invoice", "Void an invoice of a customer."))
	drain(c.changed)
	reg.Publish(v2)
	deadline := time.Now().Add(10 * time.Second)
	for slices.Contains(c.names(t), "billing_create_invoice") && time.Now().Before(deadline) {
		c.search(t, map[string]any{"query": "invoice"})
		sleep()
	}
	if got := c.names(t); slices.Contains(got, "billing_create_invoice") {
		t.Fatalf("tools/list after the toolset dropped create_invoice = %v", got)
	}
	c.waitChanged(t)
	if got := foundNames(c.search(t, map[string]any{"query": "void invoice"})); !slices.Contains(got, "billing_void_invoice") {
		t.Errorf("search of the new registration found %v", got)
	}
	out, isErr := c.call(t, "call_tool", map[string]any{"name": "billing_create_invoice", "arguments": map[string]any{"customer": "acme"}})
	if !isErr || !strings.Contains(out, "no tool") {
		t.Errorf("call of the removed tool = %q (error %v)", out, isErr)
	}
	if got := reg.Called(); len(got) != 2 {
		t.Errorf("the registry ran %v, want the two calls above only", got)
	}
}

// TestRegistryPolicyHolds tries each way to reach a registry tool the
// upstream's deny or allow list removes: finding it by keywords and by
// name, listing it after a search that would find it, and calling it
// directly and through call_tool. Each fails and the registry runs no
// call.
func TestRegistryPolicyHolds(t *testing.T) {
	cases := []struct {
		name        string
		allow, deny []string
	}{
		{name: "deny", deny: []string{"refund_payment"}},
		{name: "allow", allow: []string{"create_invoice", "list_invoices"}},
	}
	for _, tc := range cases {
		for _, rc := range registryClients {
			t.Run(tc.name+"/"+rc.name, func(t *testing.T) {
				reg := &memRegistry{}
				reg.Publish(billing())
				g := newGateway(t, Options{Mode: ModeBoth},
					Upstream{Name: "billing", Registry: rc.client(t, reg), Allow: tc.allow, Deny: tc.deny})
				c := connect(t, g)
				const hidden = "billing_refund_payment"
				ans := c.search(t, map[string]any{"query": "refund payment invoice", "names": []string{hidden}})
				if got := foundNames(ans); slices.Contains(got, hidden) || !slices.Contains(got, "billing_create_invoice") {
					t.Errorf("search found %v", got)
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
				if got := reg.Called(); len(got) != 0 {
					t.Errorf("the registry ran %v", got)
				}
			})
		}
	}
}

// TestRegistryUnavailable: a toolset the registry does not hold, or holds
// at another version than the one pinned, is named in the search's answer
// and the other upstreams keep working.
func TestRegistryUnavailable(t *testing.T) {
	cases := []struct {
		name, toolset, version, want string
	}{
		{name: "missing", toolset: "payroll", want: "the registry holds no such toolset"},
		{name: "version", toolset: "billing", version: "v2", want: `the registry does not hold the toolset at version "v2"`},
	}
	for _, tc := range cases {
		for _, rc := range registryClients {
			t.Run(tc.name+"/"+rc.name, func(t *testing.T) {
				reg := &memRegistry{}
				reg.Publish(billing())
				g := newGateway(t, Options{},
					Upstream{Name: tc.toolset, Registry: rc.client(t, reg), Version: tc.version},
					inMemory("notes", fakeServer("notes", fakeTool{"create_note", "Create a note with a title and a body."})))
				c := connect(t, g)
				ans := c.search(t, map[string]any{"query": "note"})
				if got := foundNames(ans); !slices.Equal(got, []string{"notes_create_note"}) {
					t.Errorf("search found %v", got)
				}
				if len(ans.Unavailable) != 1 || ans.Unavailable[0].Server != tc.toolset || !strings.Contains(ans.Unavailable[0].Error, tc.want) {
					t.Errorf("unavailable = %+v, want %s: %q", ans.Unavailable, tc.toolset, tc.want)
				}
			})
		}
	}
}

// TestRegistryUpstreamRefused: New refuses what a registry upstream cannot
// be.
func TestRegistryUpstreamRefused(t *testing.T) {
	client := runtimeclient.New(&memRegistry{})
	cases := []struct {
		name string
		up   Upstream
		want string
	}{
		{"transport and registry", Upstream{Name: "billing", Registry: client, Transport: mcp.InMemory(fakeServer("x"))}, "both a transport and a registry"},
		{"declared", Upstream{Name: "billing", Registry: client, Declared: &tools.ToolsetSchema{Name: "billing"}}, "has no declaration"},
		{"version without registry", Upstream{Name: "billing", Transport: mcp.InMemory(fakeServer("x")), Version: "v1"}, "pins a registry toolset"},
		{"all toolsets without registry", Upstream{Name: "company", Transport: mcp.InMemory(fakeServer("x")), AllToolsets: true}, "has no registry"},
		{"all toolsets with a version", Upstream{Name: "company", Registry: client, AllToolsets: true, Version: "v1"}, "not a whole registry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New([]Upstream{tc.up}, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestRegistryImmediateAll: a registry toolset used without Deferred lists
// every tool the registry holds from the start, callable without a
// search.
func TestRegistryImmediateAll(t *testing.T) {
	reg := &memRegistry{}
	reg.Publish(billing())
	g := newGateway(t, Options{}, Upstream{Name: "billing", Registry: runtimeclient.New(reg), ImmediateAll: true})
	c := connect(t, g)
	want := []string{"billing_create_invoice", "billing_list_invoices", "billing_refund_payment", "tool_search"}
	if got := sorted(c.names(t)); !slices.Equal(got, want) {
		t.Fatalf("first tools/list = %v, want %v", got, want)
	}
	if out, isErr := c.call(t, "billing_list_invoices", map[string]any{"customer": "acme"}); isErr || !strings.Contains(out, `"tool":"billing.list_invoices"`) {
		t.Errorf("immediate registry tool = %q (error %v)", out, isErr)
	}
}

// TestRegistryResult: a tool's result reaches the client as its JSON text,
// and as structured content when the tool declares a result schema; a
// result that breaks that schema is an error naming the toolset and the
// tool.
func TestRegistryResult(t *testing.T) {
	cases := []struct {
		name       string
		result     string // the tool's result schema
		wantErr    string
		structured bool
	}{
		{name: "no schema"},
		{name: "object schema", result: `{"type":"object","properties":{"tool":{"type":"string"}},"required":["tool"]}`, structured: true},
		{name: "broken schema", result: `{"type":"object","properties":{"invoice":{"type":"string"}},"required":["invoice"]}`,
			wantErr: `registry toolset "billing" tool "create_invoice": the result breaks the tool's result schema`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := billing()
			ts.Tools[0].Result = json.RawMessage(tc.result)
			reg := &memRegistry{}
			reg.Publish(ts)
			g := newGateway(t, Options{}, Upstream{Name: "billing", Registry: runtimeclient.New(reg), ImmediateAll: true})
			c := connect(t, g)
			res, err := c.CallTool(context.Background(), &sdk.CallToolParams{Name: "billing_create_invoice", Arguments: map[string]any{"customer": "acme"}})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" {
				if !res.IsError || !strings.Contains(text(res), tc.wantErr) {
					t.Errorf("result = %q (error %v), want an error with %q", text(res), res.IsError, tc.wantErr)
				}
				return
			}
			if res.IsError || !strings.Contains(text(res), `"tool":"billing.create_invoice"`) {
				t.Fatalf("result = %q (error %v)", text(res), res.IsError)
			}
			if got := res.StructuredContent != nil; got != tc.structured {
				t.Errorf("structured content %v, want %v", res.StructuredContent, tc.structured)
			}
		})
	}
}

// TestWholeRegistry serves every toolset of a registry as one upstream:
// its tools are "<toolset>_<tool>", the lists name them "toolset.tool", a
// denied tool is never found or called, a call goes under its own
// toolset's token, and a toolset published later is found by a later
// search.
func TestWholeRegistry(t *testing.T) {
	for _, rc := range registryClients {
		t.Run(rc.name, func(t *testing.T) {
			reg := &memRegistry{}
			reg.Publish(billing())
			reg.Publish(tools.ToolsetSchema{Name: "shipping", Version: "v3", Tools: []tools.ToolSchema{
				{Name: "shipping.track_parcel", Description: "Track the parcel of a customer.", Payload: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}}}`)},
			}})
			g := newGateway(t, Options{Mode: ModeBoth, ListInterval: time.Millisecond},
				Upstream{Name: "company", Registry: rc.client(t, reg), AllToolsets: true,
					Deny: []string{"billing.refund_payment"}, Immediate: []string{"shipping.track_parcel"}})
			c := connect(t, g)
			if got, want := sorted(c.names(t)), []string{"call_tool", "shipping_track_parcel", "tool_search"}; !slices.Equal(got, want) {
				t.Fatalf("first tools/list = %v, want %v", got, want)
			}
			ans := c.search(t, map[string]any{"query": "refund invoice customer", "names": []string{"billing_refund_payment"}})
			if got := foundNames(ans); slices.Contains(got, "billing_refund_payment") || !slices.Contains(got, "billing_create_invoice") {
				t.Errorf("search found %v", got)
			}
			out, isErr := c.call(t, "call_tool", map[string]any{"name": "billing_refund_payment", "arguments": map[string]any{"customer": "acme"}})
			if !isErr || !strings.Contains(out, "no tool") {
				t.Errorf("call of the denied tool = %q (error %v)", out, isErr)
			}
			for _, name := range []string{"billing_create_invoice", "shipping_track_parcel"} {
				if out, isErr := c.call(t, name, map[string]any{"customer": "acme"}); isErr {
					t.Errorf("%s: %s", name, out)
				}
			}
			if got, want := reg.Called(), []string{"billing.create_invoice", "shipping.track_parcel"}; !slices.Equal(got, want) {
				t.Errorf("the registry ran %v, want %v", got, want)
			}
			for _, call := range reg.Calls() {
				if want := reg.Token(call.Tool.Toolset()); call.Token != want {
					t.Errorf("call %s carries token %q, want its toolset's %q", call.Tool, call.Token, want)
				}
			}

			reg.Publish(tools.ToolsetSchema{Name: "payroll", Version: "v1", Tools: []tools.ToolSchema{
				{Name: "payroll.pay_salary", Description: "Pay the salary of an employee.", Payload: json.RawMessage(`{"type":"object"}`)},
			}})
			deadline := time.Now().Add(10 * time.Second)
			for !slices.Contains(foundNames(c.search(t, map[string]any{"query": "salary employee"})), "payroll_pay_salary") {
				if time.Now().After(deadline) {
					t.Fatal("a search never found the tool of the toolset published later")
				}
				sleep()
			}
		})
	}
}

// TestRegistryUnreachable: a registry that cannot be reached is named in a
// search's answer, and a call while it is down is an error naming the
// toolset and the tool; neither shows the registry's address.
func TestRegistryUnreachable(t *testing.T) {
	reg := &memRegistry{}
	reg.Publish(billing())
	srv := httptest.NewServer(reg.Handler(""))
	client, err := runtimeclient.NewHTTP(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, Options{}, Upstream{Name: "billing", Registry: client, ImmediateAll: true})
	c := connect(t, g)
	if got := c.names(t); !slices.Contains(got, "billing_create_invoice") {
		t.Fatalf("tools/list = %v", got)
	}
	srv.Close()
	out, isErr := c.call(t, "billing_create_invoice", map[string]any{"customer": "acme"})
	if want := `registry toolset "billing" tool "create_invoice": the registry cannot be reached`; !isErr || !strings.Contains(out, want) || strings.Contains(out, srv.URL) {
		t.Errorf("call while the registry is down = %q (error %v), want %q without its address", out, isErr, want)
	}

	down, err := runtimeclient.NewHTTP(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	g = newGateway(t, Options{}, Upstream{Name: "billing", Registry: down},
		inMemory("notes", fakeServer("notes", fakeTool{"create_note", "Create a note with a title and a body."})))
	ans := connect(t, g).search(t, map[string]any{"query": "note"})
	if len(ans.Unavailable) != 1 || ans.Unavailable[0].Error != "the registry cannot be read; the next search tries again" {
		t.Errorf("unavailable = %+v", ans.Unavailable)
	}
}

// TestRegistryCallErrors: a registry tool that fails, and a call under a
// registration the registry replaced since the gateway read it, are errors
// naming the toolset and the tool, with the registry's words.
func TestRegistryCallErrors(t *testing.T) {
	cases := []struct {
		name, tool string
		republish  bool
		want       string
	}{
		{name: "tool error", tool: "billing_refund_payment", want: `registry toolset "billing" tool "refund_payment" reported an error: tool failed: the payment is already refunded`},
		{name: "replaced registration", tool: "billing_create_invoice", republish: true, want: `registry toolset "billing" tool "create_invoice": `},
	}
	for _, tc := range cases {
		for _, rc := range registryClients {
			t.Run(tc.name+"/"+rc.name, func(t *testing.T) {
				reg := &memRegistry{}
				reg.Publish(billing())
				g := newGateway(t, Options{}, Upstream{Name: "billing", Registry: rc.client(t, reg), ImmediateAll: true})
				c := connect(t, g)
				if got := c.names(t); !slices.Contains(got, tc.tool) {
					t.Fatalf("tools/list = %v", got)
				}
				if tc.republish {
					reg.Publish(billing())
				}
				out, isErr := c.call(t, tc.tool, map[string]any{"customer": "acme"})
				if !isErr || !strings.HasPrefix(out, tc.want) {
					t.Errorf("call = %q (error %v), want an error starting %q", out, isErr, tc.want)
				}
				if tc.republish && !strings.Contains(out, "call_not_admitted") {
					t.Errorf("call = %q, want the registry's refusal", out)
				}
			})
		}
	}
}
