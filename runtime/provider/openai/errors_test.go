package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// TestProviderErrors checks that API errors become *model.ProviderError
// with the provider's status, type, message and request id.
func TestProviderErrors(t *testing.T) {
	cases := []struct {
		name      string
		rep       reply
		want      model.ProviderError
		temporary bool
	}{
		{"rate limit", reply{Status: http.StatusTooManyRequests, Body: `{"error":{"message":"Rate limit reached for gpt-5.4","type":"rate_limit_error","code":"rate_limit_exceeded","param":null}}`},
			model.ProviderError{Provider: "openai", StatusCode: 429, Type: "rate_limit_error", Message: "Rate limit reached for gpt-5.4", RequestID: "req_test_1"}, true},
		{"bad request", reply{Status: http.StatusBadRequest, Body: `{"error":{"message":"Invalid schema for function 'get_time'","type":"invalid_request_error","code":null,"param":"tools[0]"}}`},
			model.ProviderError{Provider: "openai", StatusCode: 400, Type: "invalid_request_error", Message: "Invalid schema for function 'get_time'", RequestID: "req_test_1"}, false},
		{"code only", reply{Status: http.StatusUnauthorized, Body: `{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}`},
			model.ProviderError{Provider: "openai", StatusCode: 401, Type: "invalid_api_key", Message: "Incorrect API key provided", RequestID: "req_test_1"}, false},
		{"server error", reply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"The server had an error","type":"server_error"}}`},
			model.ProviderError{Provider: "openai", StatusCode: 500, Type: "server_error", Message: "The server had an error", RequestID: "req_test_1"}, true},
		{"failed response", reply{Body: `{"id":"resp_1","object":"response","status":"failed","model":"gpt-5.4","output":[],"error":{"code":"server_error","message":"Something went wrong"}}`},
			model.ProviderError{Provider: "openai", Type: "server_error", Message: "Something went wrong"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, tc.rep)
			c := api.client()
			_, err := c.Complete(context.Background(), prepare(t, c, nativeModel, start(), testCatalog(t)))
			var pe *model.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *model.ProviderError", err, err)
			}
			got := *pe
			got.Err = nil
			if got != tc.want {
				t.Errorf("provider error = %+v, want %+v", got, tc.want)
			}
			if pe.Temporary() != tc.temporary {
				t.Errorf("Temporary() = %v, want %v", pe.Temporary(), tc.temporary)
			}
		})
	}
}

// TestRejectedBeforeSending checks requests the adapter refuses without
// calling the provider.
func TestRejectedBeforeSending(t *testing.T) {
	collide := append(start(),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "lookup"})),
		// records_lookup and lookup both become "lookup" in namespace records.
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d1", Tools: []model.ToolSnapshot{
			{Name: "records_lookup", Description: "a", Parameters: json.RawMessage(idParams), Namespace: "records"},
			{Name: "lookup", Description: "b", Parameters: json.RawMessage(idParams), Namespace: "records"},
		}}),
		model.UserMessage("go on"))
	badMeta := append(start(),
		model.Message{Role: model.RoleAssistant, Parts: []model.Part{model.TextPart("hi")},
			Meta: map[string]json.RawMessage{MetaKey: json.RawMessage(`{"not":"an array"}`)}},
		model.UserMessage("again"))
	cases := []struct {
		name    string
		history []model.Message
		edit    func(*model.Request)
		rule    model.Rule
	}{
		{"no max output tokens", start(), func(r *model.Request) { r.MaxOutputTokens = 0 }, RuleMaxOutputTokens},
		{"negative max output tokens", start(), func(r *model.Request) { r.MaxOutputTokens = -5 }, RuleMaxOutputTokens},
		{"unprepared declarations", start(), func(r *model.Request) { r.Tools = r.Tools[:1] }, discovery.RuleDeclarations},
		{"bad meta", badMeta, func(*model.Request) {}, RuleMeta},
		{"namespace collision", collide, func(*model.Request) {}, openaiwire.RuleNameCollision},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t)
			c := api.client()
			req := prepare(t, c, nativeModel, tc.history, nil)
			tc.edit(req)
			_, err := c.Complete(context.Background(), req)
			var ve *model.ValidationError
			if !errors.As(err, &ve) || ve.Rule != tc.rule || !errors.Is(err, model.ErrInvalidRequest) {
				t.Fatalf("error = %v, want a validation error of rule %q", err, tc.rule)
			}
			if _, err := c.Stream(context.Background(), req); !errors.Is(err, model.ErrInvalidRequest) {
				t.Fatalf("Stream error = %v, want the same rejection", err)
			}
			if n := api.requests(); n != 0 {
				t.Fatalf("%d requests reached the provider", n)
			}
		})
	}
}
