package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Forwarder carries an admitted call to the endpoint of the registration it
// was admitted under. It returns the provider's answer for a call that ran,
// an *registry.Error with CodeOverloaded when the provider asks to retry
// later, or an error with CodeProviderUnavailable when the endpoint failed.
type Forwarder interface {
	// Forward sends the call to endpoint.
	Forward(ctx context.Context, endpoint string, call *registry.CallRequest) (*registry.ProviderResult, error)
}

// HTTPForwarder forwards calls as POSTed JSON to endpoints that serve
// registry.ProviderHandler.
type HTTPForwarder struct {
	// Client sends the requests; http.DefaultClient when nil.
	Client *http.Client
	// MaxBody bounds the answers read; registry.DefaultMaxBodyBytes when
	// zero.
	MaxBody int64
}

// Forward implements Forwarder.
func (f *HTTPForwarder) Forward(ctx context.Context, endpoint string, call *registry.CallRequest) (*registry.ProviderResult, error) {
	body, err := json.Marshal(call)
	if err != nil {
		return nil, registry.Errorf(registry.CodeInternal, "encode call %q: %v", call.CallID, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "endpoint of %q: %v", call.Tool, err)
	}
	req.Header.Set("Content-Type", "application/json")
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "endpoint of %q: %v", call.Tool, err)
	}
	defer resp.Body.Close()
	limit := f.MaxBody
	if limit <= 0 {
		limit = registry.DefaultMaxBodyBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "endpoint of %q: read answer: %v", call.Tool, err)
	}
	if int64(len(data)) > limit {
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "endpoint of %q: answer exceeds %d bytes", call.Tool, limit)
	}
	switch {
	case resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusTooManyRequests:
		e := registry.Errorf(registry.CodeOverloaded, "provider of %q is overloaded (status %d)", call.Tool, resp.StatusCode)
		e.RetryAfter = DefaultRetryAfter
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			e.RetryAfter = time.Duration(secs) * time.Second
		}
		return nil, e
	case resp.StatusCode != http.StatusOK:
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "endpoint of %q answered status %d: %s", call.Tool, resp.StatusCode, errorMessage(data))
	}
	var out registry.ProviderResult
	if err := strictjson.Decode(data, &out); err != nil {
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "endpoint of %q: answer is not a provider result: %v", call.Tool, err)
	}
	return &out, nil
}

// errorMessage extracts the message of an error body, or a prefix of the
// raw body.
func errorMessage(data []byte) string {
	var body registry.ErrorBody
	if strictjson.Decode(data, &body) == nil && body.Error != nil {
		return body.Error.Error()
	}
	if len(data) > 200 {
		data = data[:200]
	}
	return strconv.Quote(string(data))
}

// asRegistryError returns err as an *registry.Error, classifying an error
// that is not one as the provider being unavailable.
func asRegistryError(err error) *registry.Error {
	var e *registry.Error
	if errors.As(err, &e) {
		return e
	}
	return registry.Errorf(registry.CodeProviderUnavailable, "%v", err)
}
