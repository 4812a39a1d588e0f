package conformance

import (
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3/responses"
)

// TestStrictRejects checks that the strict decoder fails on each kind of
// departure from the SDK's request types.
func TestStrictRejects(t *testing.T) {
	const msg = `{"role":"user","content":[{"type":"text","text":"hi"}]}`
	tests := []struct {
		name, body, want string
		v                any
	}{
		{"valid", `{"model":"m","max_tokens":1,"messages":[` + msg + `]}`, "", new(anthropic.BetaMessageNewParams)},
		{"unknown top-level field", `{"model":"m","max_tokens":1,"messages":[` + msg + `],"temperature":0.5}`, `unknown field "temperature"`, new(anthropic.BetaMessageNewParams)},
		{"mistyped field", `{"model":"m","max_tokens":"1","messages":[` + msg + `]}`, `at "/max_tokens": a string, want an integer`, new(anthropic.BetaMessageNewParams)},
		{"missing required field", `{"model":"m","messages":[` + msg + `]}`, `required field "max_tokens"`, new(anthropic.BetaMessageNewParams)},
		{"block of no known type", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"picture","url":"x"}]}]}`, `fits no variant`, new(anthropic.BetaMessageNewParams)},
		{"unknown field in a block", `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"hi","lang":"en"}]}]}`, `fits no variant`, new(anthropic.BetaMessageNewParams)},
		{"server tool input where a block wants text", `{"model":"m","max_tokens":1,"messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{"query":"q"},"extra":1}]}]}`, `fits no variant`, new(anthropic.BetaMessageNewParams)},
		{"responses: unknown field", `{"model":"gpt-5.4","input":"hi","temperatur":1}`, `unknown field "temperatur"`, new(responses.ResponseNewParams)},
		{"responses: item of no known type", `{"model":"gpt-5.4","input":[{"type":"tool_lookup","call_id":"c"}]}`, `fits no variant`, new(responses.ResponseNewParams)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Strict([]byte(tt.body), tt.v)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestCheckResponseRejects checks that a response with a block, item or
// field the SDK does not know fails.
func TestCheckResponseRejects(t *testing.T) {
	const usage = `"usage":{"input_tokens":1,"output_tokens":1}`
	tests := []struct {
		name, provider, body string
	}{
		{"unknown block type", Anthropic, `{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"hologram","data":"x"}],"stop_reason":"end_turn",` + usage + `}`},
		{"unknown field in a block", Anthropic, `{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"thinking","thinking":"t","signature":"s","mood":"calm"}],"stop_reason":"end_turn",` + usage + `}`},
		{"unknown message field", Anthropic, `{"id":"m","type":"message","role":"assistant","model":"c","content":[],"stop_reason":"end_turn","verdict":1,` + usage + `}`},
		{"unknown item type", OpenAIResponses, `{"id":"r","object":"response","created_at":1,"status":"completed","model":"gpt-5.4","output":[{"type":"tool_lookup","id":"x"}]}`},
		{"unknown field in an item", OpenAIResponses, `{"id":"r","object":"response","created_at":1,"status":"completed","model":"gpt-5.4","output":[{"type":"reasoning","id":"rs","summary":[],"secret":"s"}]}`},
		{"mistyped chat field", OpenAIChat, `{"id":"c","object":"chat.completion","created":"yesterday","model":"gpt-4.1","choices":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckResponse(tt.provider, []byte(tt.body)); err == nil {
				t.Fatalf("CheckResponse accepted %s", tt.body)
			}
		})
	}
}
