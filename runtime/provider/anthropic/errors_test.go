package anthropic

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestProviderErrors checks that API failures become *model.ProviderError
// with the provider's status, type, message and request id.
func TestProviderErrors(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		typ, msg  string
		temporary bool
	}{
		{"rate limit", http.StatusTooManyRequests, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`,
			"rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", true},
		{"invalid request", http.StatusBadRequest, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.2.name: String should match pattern"}}`,
			"invalid_request_error", "tools.2.name: String should match pattern", false},
		{"overloaded", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			"overloaded_error", "Overloaded", true},
		{"authentication", http.StatusUnauthorized, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`,
			"authentication_error", "invalid x-api-key", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, reply{status: tt.status, body: tt.body})
			c := api.client()
			_, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
			var pe *model.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want *model.ProviderError", err, err)
			}
			if pe.Provider != Provider || pe.StatusCode != tt.status || pe.Type != tt.typ || pe.Message != tt.msg || pe.RequestID != "req_test_1" {
				t.Errorf("provider error %+v", pe)
			}
			if pe.Temporary() != tt.temporary {
				t.Errorf("temporary %t, want %t", pe.Temporary(), tt.temporary)
			}
			if pe.Unwrap() == nil {
				t.Error("provider error does not keep the SDK error")
			}
		})
	}
}

// TestTransportError checks that a failure without an API response keeps
// its cause.
func TestTransportError(t *testing.T) {
	api := newFakeAPI(t)
	c := api.client()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Complete(ctx, request(t, c, nativeModel, opening()))
	var pe *model.ProviderError
	if !errors.Is(err, context.Canceled) || errors.As(err, &pe) {
		t.Fatalf("error %v, want context.Canceled and no provider error", err)
	}
}
