package gateway

// The in-process registry of the registry upstream tests.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// memRegistry is a registry.Consumer in memory: the toolsets it holds,
// each with the fingerprint and token of its current registration (those
// the registry's client checks), and the calls it ran. The gateway
// reaches it through runtimeclient, the runtime's registry client, either
// directly or over HTTP through registry.Client (handler).
type memRegistry struct {
	mu       sync.Mutex
	toolsets map[string]registry.ResolvedToolset
	revision int
	calls    []registry.CallRequest
}

// publish registers ts under a new token.
func (r *memRegistry) publish(ts tools.ToolsetSchema) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.toolsets == nil {
		r.toolsets = make(map[string]registry.ResolvedToolset)
	}
	fp, err := contract.Fingerprint(&ts)
	if err != nil {
		panic(err) // the tests' toolsets are valid
	}
	r.revision++
	rev := fmt.Sprint(r.revision)
	r.toolsets[ts.Name] = registry.ResolvedToolset{Toolset: ts, Fingerprint: fp, Revision: rev, Token: registry.NewToken(fp, rev)}
}

// token returns the token of the current registration of toolset.
func (r *memRegistry) token(toolset string) registry.Token {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.toolsets[toolset].Token
}

// handler serves the list, resolve and call routes of the registry
// protocol from r, for registry.Client.
func (r *memRegistry) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+registry.PathResolve, func(w http.ResponseWriter, req *http.Request) {
		var in registry.ResolveRequest
		if err := registry.DecodeRequest(req.Body, 1<<20, &in); err != nil {
			registry.WriteError(w, err)
			return
		}
		cat, err := r.ResolveToolsets(req.Context(), in.Toolsets)
		switch {
		case errors.Is(err, registry.ErrToolsetNotFound):
			registry.WriteError(w, registry.Errorf(registry.CodeToolsetNotFound, "%v", err))
		case errors.Is(err, registry.ErrVersionMismatch):
			registry.WriteError(w, registry.Errorf(registry.CodeVersionMismatch, "%v", err))
		default:
			registry.WriteJSON(w, http.StatusOK, cat)
		}
	})
	mux.HandleFunc("GET "+registry.PathToolsets, func(w http.ResponseWriter, req *http.Request) {
		cat, _ := r.ListToolsets(req.Context())
		registry.WriteJSON(w, http.StatusOK, cat)
	})
	mux.HandleFunc("POST "+registry.PathCalls, func(w http.ResponseWriter, req *http.Request) {
		var in registry.CallRequest
		if err := registry.DecodeRequest(req.Body, 1<<20, &in); err != nil {
			registry.WriteError(w, err)
			return
		}
		res, err := r.CallResolvedTool(req.Context(), &in)
		if err != nil {
			registry.WriteError(w, registry.Errorf(registry.CodeCallNotAdmitted, "%v", err))
			return
		}
		registry.WriteJSON(w, http.StatusOK, res)
	})
	return mux
}

// registryClients are the two ways the tests reach a memRegistry: the
// runtime's client on the consumer itself, and on registry.Client over
// HTTP (on loopback), which checks every record it reads.
var registryClients = []struct {
	name   string
	client func(t *testing.T, r *memRegistry) runtime.RegistryClient
}{
	{"in memory", func(_ *testing.T, r *memRegistry) runtime.RegistryClient { return runtimeclient.New(r) }},
	{"http", func(t *testing.T, r *memRegistry) runtime.RegistryClient {
		srv := httptest.NewServer(r.handler())
		t.Cleanup(srv.Close)
		c, err := runtimeclient.NewHTTP(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
}

func (r *memRegistry) ListToolsets(context.Context) (*registry.Catalog, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cat := &registry.Catalog{Generation: uint64(r.revision), Toolsets: []registry.ResolvedToolset{}}
	for _, name := range slices.Sorted(maps.Keys(r.toolsets)) {
		cat.Toolsets = append(cat.Toolsets, r.toolsets[name])
	}
	return cat, nil
}

func (r *memRegistry) ResolveToolsets(_ context.Context, refs []registry.ToolsetRef) (*registry.Catalog, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cat := &registry.Catalog{Generation: uint64(r.revision)}
	for _, ref := range refs {
		ts, ok := r.toolsets[ref.Name]
		if !ok {
			return nil, fmt.Errorf("toolset %q: %w", ref.Name, registry.ErrToolsetNotFound)
		}
		if ref.Version != "" && ts.Toolset.Version != ref.Version {
			return nil, fmt.Errorf("toolset %q is at %q: %w", ref.Name, ts.Toolset.Version, registry.ErrVersionMismatch)
		}
		cat.Toolsets = append(cat.Toolsets, ts)
	}
	return cat, nil
}

// CallResolvedTool runs a call of a current registration's tool: it
// answers with the tool's name and payload, except refund_payment, which
// fails.
func (r *memRegistry) CallResolvedTool(_ context.Context, call *registry.CallRequest) (*registry.CallResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts, ok := r.toolsets[call.Tool.Toolset()]
	if !ok || ts.Token != call.Token || !slices.ContainsFunc(ts.Toolset.Tools, func(t tools.ToolSchema) bool { return t.Name == call.Tool }) {
		return nil, fmt.Errorf("call %s: %w", call.Tool, registry.ErrCallNotAdmitted)
	}
	r.calls = append(r.calls, *call)
	if call.Tool.Tool() == "refund_payment" {
		// The tool ran and failed.
		return &registry.CallResult{CallID: call.CallID, Tool: call.Tool, Token: call.Token, ToolError: "the payment is already refunded"}, nil
	}
	res, _ := json.Marshal(map[string]any{"tool": call.Tool, "payload": call.Payload})
	return &registry.CallResult{CallID: call.CallID, Tool: call.Tool, Token: call.Token, Result: res}, nil
}

// called returns the tools of the calls the registry ran.
func (r *memRegistry) called() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, c := range r.calls {
		out = append(out, string(c.Tool))
	}
	return out
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
