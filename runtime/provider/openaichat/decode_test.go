package openaichat

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// TestDecodeCompletions decodes canned completions into the neutral
// history.
func TestDecodeCompletions(t *testing.T) {
	usage := model.Usage{InputTokens: 120, OutputTokens: 20, CacheReadTokens: 100, ReasoningTokens: 8}
	cases := []struct {
		name    string
		body    string
		parts   []model.Part
		reason  model.FinishReason
		wantErr error
	}{
		{"text", completionJSON(answerMessage, "stop"), []model.Part{model.TextPart("Record r1 is late.")}, model.FinishStop, nil},
		{"length", completionJSON(answerMessage, "length"), []model.Part{model.TextPart("Record r1 is late.")}, model.FinishLength, nil},
		{"content filter", completionJSON(`{"role":"assistant","content":null}`, "content_filter"), []model.Part{}, model.FinishContentFilter, nil},
		{"refusal", completionJSON(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`, "stop"),
			[]model.Part{model.TextPart("I can't help with that.")}, model.FinishRefusal, nil},
		{"text and calls", completionJSON(`{"role":"assistant","content":"Checking.","tool_calls":[{"id":"a","type":"function","function":{"name":"get_time","arguments":"{\"zone\":\"UTC\"}"}},{"id":"b","type":"function","function":{"name":"tool_search","arguments":"{\"names\":[\"billing_refund\"]}"}}]}`, "tool_calls"),
			[]model.Part{model.TextPart("Checking."), model.ToolCallPart(model.ToolCall{ID: "a", Name: "get_time", Arguments: json.RawMessage(`{"zone":"UTC"}`)}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "b", Names: []string{"billing_refund"}})}, model.FinishToolCalls, nil},
		{"malformed arguments", completionJSON(callsMessage([3]string{"a", "get_time", `{"zone":`}), "tool_calls"),
			[]model.Part{model.ToolCallPart(model.ToolCall{ID: "a", Name: "get_time", MalformedArguments: `{"zone":`})}, model.FinishToolCalls, nil},
		{"bad discovery arguments", completionJSON(callsMessage([3]string{"a", "tool_search", `{"query":""}`}), "tool_calls"),
			[]model.Part{model.ToolCallPart(model.ToolCall{ID: "a", Name: discovery.ToolName, Arguments: json.RawMessage(`{"query":""}`)})}, model.FinishToolCalls, nil},
		{"no choice", `{"id":"x","object":"chat.completion","choices":[],` + usageJSON + `}`, nil, "", ErrUnexpectedOutput},
		{"unknown finish reason", completionJSON(answerMessage, "eos"), nil, "", ErrUnexpectedOutput},
		{"call without id", completionJSON(callsMessage([3]string{"", "get_time", `{}`}), "tool_calls"), nil, "", ErrUnexpectedOutput},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, openaitest.Reply{Body: tc.body})
			c := api.client()
			resp, err := c.Complete(context.Background(), openaitest.Prepare(t, c, chatModel, openaitest.Start(), openaitest.Catalog(t)))
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.parts, resp.Message.Parts); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
			if resp.FinishReason != tc.reason || resp.Usage != usage {
				t.Errorf("finish %q usage %+v, want %q %+v", resp.FinishReason, resp.Usage, tc.reason, usage)
			}
		})
	}
}

// TestProviderErrors checks that API errors become *model.ProviderError.
func TestProviderErrors(t *testing.T) {
	api := newFakeAPI(t, openaitest.Reply{Status: http.StatusTooManyRequests, Body: `{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}`})
	c := api.client()
	_, err := c.Complete(context.Background(), openaitest.Prepare(t, c, chatModel, openaitest.Start(), nil))
	var pe *model.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a *model.ProviderError", err)
	}
	got := *pe
	got.Err = nil
	want := model.ProviderError{Provider: "openai", StatusCode: 429, Type: "rate_limit_error", Message: "Rate limit reached", RequestID: "req_test_1"}
	if got != want || !pe.Temporary() {
		t.Fatalf("provider error = %+v (temporary %v), want %+v", got, pe.Temporary(), want)
	}
}

// TestUnsupported checks what a client without function calling or strict
// tools refuses before sending.
func TestUnsupported(t *testing.T) {
	api := newFakeAPI(t)
	noTools := api.client(WithoutTools())
	if got := noTools.Capabilities(chatModel).Discovery; got != model.DiscoveryUnsupported {
		t.Fatalf("WithoutTools capabilities: %v", got)
	}
	req := &model.Request{Model: chatModel, Messages: openaitest.Start(), Discovery: model.Discovery{Enabled: true}}
	if _, err := noTools.Complete(context.Background(), req); !errors.Is(err, model.ErrToolSearchUnsupported) {
		t.Errorf("discovery without function calling: %v, want ErrToolSearchUnsupported", err)
	}
	loose := openaitest.AppTools()
	loose[0].Strict = false
	req = &model.Request{Model: chatModel, Messages: openaitest.Start(), Tools: loose}
	var ve *model.ValidationError
	if _, err := noTools.Complete(context.Background(), req); !errors.As(err, &ve) || ve.Rule != RuleToolsUnsupported {
		t.Errorf("tools without function calling: %v, want rule %q", err, RuleToolsUnsupported)
	}
	noStrict := api.client(WithoutStrictTools())
	if caps := noStrict.Capabilities(chatModel); caps.Discovery != model.DiscoveryEmulated || caps.Strict.Supported {
		t.Fatalf("WithoutStrictTools capabilities: %+v", caps)
	}
	req = &model.Request{Model: chatModel, Messages: openaitest.Start(), Tools: openaitest.AppTools()}
	if _, err := noStrict.Complete(context.Background(), req); !errors.As(err, &ve) || ve.Rule != discovery.RuleStrictLimit {
		t.Errorf("strict tool without strict support: %v, want rule %q", err, discovery.RuleStrictLimit)
	}
	if n := api.Requests(); n != 0 {
		t.Fatalf("%d requests reached the provider", n)
	}
	if got := New().Capabilities("anything"); got.Discovery != model.DiscoveryEmulated || !got.Strict.Supported {
		t.Fatalf("default capabilities: %+v", got)
	}
}
