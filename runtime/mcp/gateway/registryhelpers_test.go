package gateway

// The in-process registry of the registry upstream tests, and its toolsets.

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/registrytest"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// memRegistry is the in-memory registry of the tests (package
// registrytest). The gateway reaches it through runtimeclient, the
// runtime's registry client, either directly or over HTTP through
// registry.Client (its Handler).
type memRegistry = registrytest.Registry

// registryClients are the two ways the tests reach a memRegistry: the
// runtime's client on the consumer itself, and on registry.Client over
// HTTP (on loopback), which checks every record it reads.
var registryClients = []struct {
	name   string
	client func(t *testing.T, r *memRegistry) runtime.RegistryClient
}{
	{"in memory", func(_ *testing.T, r *memRegistry) runtime.RegistryClient { return runtimeclient.New(r) }},
	{"http", func(t *testing.T, r *memRegistry) runtime.RegistryClient {
		srv := httptest.NewServer(r.Handler(""))
		t.Cleanup(srv.Close)
		c, err := runtimeclient.NewHTTP(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
}

// drain empties a channel of notifications.
func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func billingTool(name, description string) tools.ToolSchema {
	return tools.ToolSchema{
		Name:        tools.Ident("billing." + name),
		Description: description,
		Payload:     json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"],"additionalProperties":false}`),
	}
}

// billing is the registry toolset of the tests, at version v1.
func billing() tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: "billing", Version: "v1", Tools: []tools.ToolSchema{
		billingTool("create_invoice", "Create an invoice for a customer."),
		billingTool("list_invoices", "List the invoices of a customer."),
		billingTool("refund_payment", "Refund the payment of a customer's invoice."),
	}}
}
