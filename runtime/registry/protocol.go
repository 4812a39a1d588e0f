package registry

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// Routes of the registry's HTTP API. Every body is JSON.
const (
	// PathToolsets: POST publishes (PublishRequest -> PublishResult), GET
	// lists the whole registry (-> Catalog), a page at a time: the next
	// page is GET with the query parameter cursor set to the previous
	// page's Next.
	PathToolsets = "/v1/toolsets"
	// PathResolve: POST resolves named toolsets (ResolveRequest ->
	// Catalog), a page at a time: the next page is the same request with
	// Cursor set to the previous page's Next.
	PathResolve = "/v1/resolve"
	// PathWithdraw: POST withdraws a toolset (WithdrawRequest -> 204).
	PathWithdraw = "/v1/withdraw"
	// PathCalls: POST calls a resolved tool (CallRequest -> CallResult).
	PathCalls = "/v1/calls"
)

// Consumer is what an agent runtime needs from a registry: a whole-registry
// read, a resolution of named toolsets, and calls to resolved tools. The
// HTTP Client and the in-process service both implement it.
type Consumer interface {
	// ListToolsets reads every registered toolset.
	ListToolsets(ctx context.Context) (*Catalog, error)
	// ResolveToolsets reads the named toolsets, all or none: a missing
	// toolset is ErrToolsetNotFound, a pinned version that is not current
	// ErrVersionMismatch.
	ResolveToolsets(ctx context.Context, refs []ToolsetRef) (*Catalog, error)
	// CallResolvedTool runs a call under the token its tool was resolved
	// under.
	CallResolvedTool(ctx context.Context, call *CallRequest) (*CallResult, error)
}

// Publisher is what a provider needs from a registry.
type Publisher interface {
	// Publish registers a toolset or replaces its registration.
	Publish(ctx context.Context, req *PublishRequest) (*PublishResult, error)
	// Withdraw removes a toolset's current registration.
	Withdraw(ctx context.Context, req *WithdrawRequest) error
}

// WriteJSON writes v as the JSON body of a response with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		WriteError(w, Internal("encode response", err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// WriteError writes err as an ErrorBody with its code's status: its Code
// and Message, never its Cause. An error that is not an *Error is reported
// as CodeInternal without its text, which may name internal details.
func WriteError(w http.ResponseWriter, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = Internal("request", err)
	}
	if e.RetryAfter > 0 {
		secs := int((e.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	body, _ := json.Marshal(ErrorBody{Error: e})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Code.Status())
	_, _ = w.Write(append(body, '\n'))
}

// parseRetryAfter reads a Retry-After header given in seconds.
func parseRetryAfter(h http.Header) time.Duration {
	secs, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || secs <= 0 {
		return 0
	}
	return time.Duration(secs) * time.Second
}
