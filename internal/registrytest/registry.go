package registrytest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// FailingTool is the tool name whose calls fail as a tool's own error
// ("the payment is already refunded"), in any toolset.
const FailingTool = "refund_payment"

// Registry is a registry.Consumer in memory: the toolsets it holds, each
// with the fingerprint and token of its current registration, and the
// calls it ran. The zero value is an empty registry; it is safe for
// concurrent use.
type Registry struct {
	mu       sync.Mutex
	toolsets map[string]registry.ResolvedToolset
	revision int
	calls    []registry.CallRequest
}

var _ registry.Consumer = (*Registry)(nil)

// Publish registers ts under a new token. It panics on a toolset whose
// fingerprint cannot be computed: the tests' toolsets are valid.
func (r *Registry) Publish(ts tools.ToolsetSchema) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.toolsets == nil {
		r.toolsets = make(map[string]registry.ResolvedToolset)
	}
	fp, err := contract.Fingerprint(&ts)
	if err != nil {
		panic(err)
	}
	r.revision++
	rev := fmt.Sprint(r.revision)
	r.toolsets[ts.Name] = registry.ResolvedToolset{Toolset: ts, Fingerprint: fp, Revision: rev, Token: registry.NewToken(fp, rev)}
}

// Token returns the token of the current registration of toolset, empty
// when the registry does not hold it.
func (r *Registry) Token(toolset string) registry.Token {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.toolsets[toolset].Token
}

// Calls returns the calls the registry ran, in order.
func (r *Registry) Calls() []registry.CallRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// Called returns the tools of the calls the registry ran, in order.
func (r *Registry) Called() []string {
	var out []string
	for _, c := range r.Calls() {
		out = append(out, string(c.Tool))
	}
	return out
}

// Handler serves the list, resolve and call routes of the registry
// protocol from r, for registry.Client. When bearer is not empty, a
// request without "Authorization: Bearer <bearer>" is refused as the
// registry refuses one.
func (r *Registry) Handler(bearer string) http.Handler {
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
	if bearer == "" {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Authorization") != "Bearer "+bearer {
			registry.WriteError(w, registry.Errorf(registry.CodeUnauthenticated, "no valid bearer token"))
			return
		}
		mux.ServeHTTP(w, req)
	})
}

// ListToolsets returns every toolset the registry holds, by name.
func (r *Registry) ListToolsets(context.Context) (*registry.Catalog, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cat := &registry.Catalog{Generation: uint64(r.revision), Toolsets: []registry.ResolvedToolset{}}
	for _, name := range slices.Sorted(maps.Keys(r.toolsets)) {
		cat.Toolsets = append(cat.Toolsets, r.toolsets[name])
	}
	return cat, nil
}

// ResolveToolsets returns the toolsets refs name, at their pinned
// versions.
func (r *Registry) ResolveToolsets(_ context.Context, refs []registry.ToolsetRef) (*registry.Catalog, error) {
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
// answers with the tool's name and payload, except FailingTool, which
// fails.
func (r *Registry) CallResolvedTool(_ context.Context, call *registry.CallRequest) (*registry.CallResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts, ok := r.toolsets[call.Tool.Toolset()]
	if !ok || ts.Token != call.Token || !slices.ContainsFunc(ts.Toolset.Tools, func(t tools.ToolSchema) bool { return t.Name == call.Tool }) {
		return nil, fmt.Errorf("call %s: %w", call.Tool, registry.ErrCallNotAdmitted)
	}
	r.calls = append(r.calls, *call)
	if call.Tool.Tool() == FailingTool {
		return &registry.CallResult{CallID: call.CallID, Tool: call.Tool, Token: call.Token, ToolError: "the payment is already refunded"}, nil
	}
	res, _ := json.Marshal(map[string]any{"tool": call.Tool, "payload": call.Payload})
	return &registry.CallResult{CallID: call.CallID, Tool: call.Tool, Token: call.Token, Result: res}, nil
}
