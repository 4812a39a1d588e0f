package openai

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestDecodeResponses decodes canned provider responses into the neutral
// history.
func TestDecodeResponses(t *testing.T) {
	usage := model.Usage{InputTokens: 120, OutputTokens: 20, CacheReadTokens: 100, ReasoningTokens: 8}
	cases := []struct {
		name    string
		model   string
		body    string
		parts   []model.Part
		reason  model.FinishReason
		wantErr error
	}{
		{"text", nativeModel, responseJSON(nativeModel, answerItem),
			[]model.Part{model.TextPart("Record r1 is late.")}, model.FinishStop, nil},
		{"refusal", nativeModel, responseJSON(nativeModel, `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"refusal","refusal":"I can't help with that."}]}`),
			[]model.Part{model.TextPart("I can't help with that.")}, model.FinishRefusal, nil},
		{"length", nativeModel, `{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[` + answerItem + `],` + usageJSON + `}`,
			[]model.Part{model.TextPart("Record r1 is late.")}, model.FinishLength, nil},
		{"content filter", nativeModel, `{"id":"r","status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[],` + usageJSON + `}`,
			[]model.Part{}, model.FinishContentFilter, nil},
		{"search with names", nativeModel, responseJSON(nativeModel, `{"type":"tool_search_call","id":"t","call_id":"c","execution":"client","status":"completed","arguments":{"query":"refund","names":["billing_refund"]}}`),
			[]model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "c", Query: "refund", Names: []string{"billing_refund"}})}, model.FinishToolCalls, nil},
		{"malformed arguments", nativeModel, responseJSON(nativeModel, `{"type":"function_call","call_id":"c","name":"get_time","arguments":"{\"zone\": "}`),
			[]model.Part{model.ToolCallPart(model.ToolCall{ID: "c", Name: "get_time", MalformedArguments: `{"zone": `})}, model.FinishToolCalls, nil},
		{"unknown namespace", nativeModel, responseJSON(nativeModel, `{"type":"function_call","call_id":"c","namespace":"crm","name":"lookup","arguments":"{}"}`),
			[]model.Part{model.ToolCallPart(model.ToolCall{ID: "c", Name: "crm.lookup", Arguments: json.RawMessage(`{}`)})}, model.FinishToolCalls, nil},
		{"emulated discovery", emulatedModel, responseJSON(emulatedModel, `{"type":"function_call","call_id":"c","name":"tool_search","arguments":"{\"names\":[\"records_lookup\"]}"}`),
			[]model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "c", Names: []string{"records_lookup"}})}, model.FinishToolCalls, nil},
		{"emulated discovery with bad arguments", emulatedModel, responseJSON(emulatedModel, `{"type":"function_call","call_id":"c","name":"tool_search","arguments":"{\"q\":\"x\"}"}`),
			[]model.Part{model.ToolCallPart(model.ToolCall{ID: "c", Name: discovery.ToolName, Arguments: json.RawMessage(`{"q":"x"}`)})}, model.FinishToolCalls, nil},
		{"server search", nativeModel, responseJSON(nativeModel, `{"type":"tool_search_call","id":"t","call_id":"c","execution":"server","status":"completed","arguments":{"query":"x"}}`),
			nil, "", ErrUnexpectedOutput},
		{"bad search arguments", nativeModel, responseJSON(nativeModel, `{"type":"tool_search_call","id":"t","call_id":"c","execution":"client","status":"completed","arguments":{"query":""}}`),
			nil, "", discovery.ErrInvalidDiscoveryCall},
		{"in progress", nativeModel, `{"id":"r","status":"in_progress","output":[]}`, nil, "", ErrUnexpectedOutput},
		{"empty arguments", nativeModel, responseJSON(nativeModel, `{"type":"function_call","call_id":"c","name":"get_time","arguments":""}`), nil, "", ErrUnexpectedOutput},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, reply{Body: tc.body})
			c := api.client()
			resp, err := c.Complete(context.Background(), prepare(t, c, tc.model, start(), testCatalog(t)))
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
			if resp.FinishReason != tc.reason {
				t.Errorf("finish reason = %q, want %q", resp.FinishReason, tc.reason)
			}
			if resp.Usage != usage {
				t.Errorf("usage = %+v, want %+v", resp.Usage, usage)
			}
			if err := resp.Validate(); err != nil {
				t.Errorf("response does not validate: %v", err)
			}
		})
	}
}
