package registry

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// Executor runs the calls a registry forwards to a provider.
type Executor interface {
	// ExecuteTool runs the call and returns its JSON result. An error
	// matching ErrOverloaded tells the registry to retry later; any other
	// error is the tool's own failure, reported to the model.
	ExecuteTool(ctx context.Context, call *CallRequest) (json.RawMessage, error)
}

// ExecutorFunc adapts a function to Executor.
type ExecutorFunc func(ctx context.Context, call *CallRequest) (json.RawMessage, error)

// ExecuteTool calls f.
func (f ExecutorFunc) ExecuteTool(ctx context.Context, call *CallRequest) (json.RawMessage, error) {
	return f(ctx, call)
}

// ProviderHandler returns the handler a provider mounts at the endpoint it
// publishes. It accepts POSTed CallRequests of at most maxBody bytes
// (DefaultMaxBodyBytes when maxBody <= 0) and answers a ProviderResult, or
// an error body: 503 when the executor is overloaded, 4xx for a request
// outside the protocol. A call may arrive more than once (the registry
// retries calls it could not complete); CallID identifies it.
func ProviderHandler(exec Executor, maxBody int64) http.Handler {
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			WriteError(w, Errorf(CodeMethodNotAllowed, "%s %s: want POST", r.Method, r.URL.Path))
			return
		}
		var call CallRequest
		if err := DecodeRequest(r.Body, maxBody, &call); err != nil {
			WriteError(w, err)
			return
		}
		if err := call.Validate(); err != nil {
			WriteError(w, err)
			return
		}
		result, err := exec.ExecuteTool(r.Context(), &call)
		switch {
		case errors.Is(err, ErrOverloaded):
			WriteError(w, err)
		case err != nil:
			WriteJSON(w, http.StatusOK, ProviderResult{ToolError: err.Error()})
		case len(result) > 0 && !json.Valid(result):
			WriteError(w, Errorf(CodeInternal, "tool %q returned a result that is not JSON", call.Tool))
		default:
			WriteJSON(w, http.StatusOK, ProviderResult{Result: result})
		}
	})
}
