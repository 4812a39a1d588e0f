package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestDecodeResponses decodes canned provider answers into the neutral
// history.
func TestDecodeResponses(t *testing.T) {
	hostedMeta := func(result string) map[string]json.RawMessage {
		rec, err := json.Marshal(nativeRecord{ServerToolUse: json.RawMessage(serverToolUse), ToolSearchResult: json.RawMessage(result)})
		if err != nil {
			t.Fatal(err)
		}
		return map[string]json.RawMessage{Provider: rec}
	}
	searchError := `{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_result_error","error_code":"unavailable","error_message":"try later"}}`
	tests := []struct {
		name   string
		reply  reply
		want   []model.Part
		finish model.FinishReason
	}{
		{
			name:   "text",
			reply:  messageReply("end_turn", answerBlocks),
			want:   []model.Part{model.TextPart("Refunded.")},
			finish: model.FinishStop,
		},
		{
			name:   "tool call mapped back to its declared name",
			reply:  messageReply("tool_use", `[{"type":"tool_use","id":"toolu_1","name":"records_lookup","input":{"id": "r1"}}]`),
			want:   []model.Part{model.ToolCallPart(model.ToolCall{ID: "toolu_1", Name: "records.lookup", Arguments: json.RawMessage(`{"id":"r1"}`)})},
			finish: model.FinishToolCalls,
		},
		{
			name:   "discovery tool call",
			reply:  messageReply("tool_use", `[{"type":"tool_use","id":"toolu_d","name":"tool_search","input":{"names":["billing_refund"],"query":"refund"}}]`),
			want:   []model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "toolu_d", Names: []string{"billing_refund"}, Query: "refund"})},
			finish: model.FinishToolCalls,
		},
		{
			name:   "discovery tool call with bad input stays a tool call",
			reply:  messageReply("tool_use", `[{"type":"tool_use","id":"toolu_d","name":"tool_search","input":{"limit":3}}]`),
			want:   []model.Part{model.ToolCallPart(model.ToolCall{ID: "toolu_d", Name: "tool_search", Arguments: json.RawMessage(`{"limit":3}`)})},
			finish: model.FinishToolCalls,
		},
		{
			name:  "hosted search with its result and a call",
			reply: messageReply("tool_use", hostedBlocks),
			want: []model.Part{
				{Kind: model.PartDiscoveryCall, DiscoveryCall: &model.DiscoveryCall{ID: "srvtoolu_1", Names: []string{"billing_refund"}, Query: "refund invoice", Hosted: true}, Meta: hostedMeta(toolSearchResult)},
				model.ToolCallPart(model.ToolCall{ID: "toolu_c1", Name: "billing_refund", Arguments: json.RawMessage(`{"invoice":"i1"}`)}),
			},
			finish: model.FinishToolCalls,
		},
		{
			// The search ran and the model answered in the same response:
			// nothing is pending, so no further request is sent.
			name:  "hosted search finished in the answer",
			reply: messageReply("end_turn", `[`+serverToolUse+`,`+toolSearchResult+`,{"type":"text","text":"No refund is needed."}]`),
			want: []model.Part{
				{Kind: model.PartDiscoveryCall, DiscoveryCall: &model.DiscoveryCall{ID: "srvtoolu_1", Names: []string{"billing_refund"}, Query: "refund invoice", Hosted: true}, Meta: hostedMeta(toolSearchResult)},
				model.TextPart("No refund is needed."),
			},
			finish: model.FinishStop,
		},
		{
			name:  "hosted search that failed keeps the query",
			reply: messageReply("end_turn", `[`+serverToolUse+`,`+searchError+`]`),
			want: []model.Part{
				{Kind: model.PartDiscoveryCall, DiscoveryCall: &model.DiscoveryCall{ID: "srvtoolu_1", Query: "refund invoice", Hosted: true}, Meta: hostedMeta(searchError)},
			},
			finish: model.FinishStop,
		},
		{
			// The turn also called a client tool: the provider runs the
			// search once the tool's result comes back.
			name:  "hosted search without its result next to a client call",
			reply: messageReply("tool_use", `[`+serverToolUse+`,`+callBlocks[1:len(callBlocks)-1]+`]`),
			want: []model.Part{
				{Kind: model.PartDiscoveryCall, DiscoveryCall: &model.DiscoveryCall{ID: "srvtoolu_1", Query: "refund invoice", Hosted: true}, Meta: map[string]json.RawMessage{Provider: json.RawMessage(`{"server_tool_use":` + serverToolUse + `}`)}},
				model.ToolCallPart(model.ToolCall{ID: "toolu_c1", Name: "billing_refund", Arguments: json.RawMessage(`{"invoice":"i1"}`)}),
			},
			finish: model.FinishToolCalls,
		},
		{
			name:  "search result of a call of an earlier message",
			reply: messageReply("end_turn", `[`+toolSearchResult+`,{"type":"text","text":"Refunded."}]`),
			want: []model.Part{
				{Kind: model.PartDiscoveryCall, DiscoveryCall: &model.DiscoveryCall{ID: "srvtoolu_1_result", Names: []string{"billing_refund"}, Hosted: true}, Meta: map[string]json.RawMessage{Provider: json.RawMessage(`{"tool_search_tool_result":` + toolSearchResult + `}`)}},
				model.TextPart("Refunded."),
			},
			finish: model.FinishStop,
		},
		{
			name:  "thinking and redacted thinking are kept as they came",
			reply: messageReply("end_turn", `[`+thinkingBlock+`,`+redactedThinkingBlock+`,{"type":"text","text":"Refunded."}]`),
			want: []model.Part{
				model.ReasoningPart(model.Reasoning{Text: "The user wants a refund."}, Provider, []byte(thinkingBlock)),
				model.ReasoningPart(model.Reasoning{Redacted: true}, Provider, []byte(redactedThinkingBlock)),
				model.TextPart("Refunded."),
			},
			finish: model.FinishStop,
		},
		{
			name:   "length",
			reply:  messageReply("max_tokens", `[{"type":"text","text":"Refu"}]`),
			want:   []model.Part{model.TextPart("Refu")},
			finish: model.FinishLength,
		},
		{
			name:   "refusal",
			reply:  messageReply("refusal", `[]`),
			finish: model.FinishRefusal,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, tt.reply)
			c := api.client(WithHostedSearch(SearchBM25))
			if tt.name == "discovery tool call" || tt.name == "discovery tool call with bad input stays a tool call" {
				c = api.client()
			}
			resp, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(model.AssistantMessage(tt.want...), resp.Message); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if resp.FinishReason != tt.finish {
				t.Errorf("finish %q, want %q", resp.FinishReason, tt.finish)
			}
			want := model.Usage{InputTokens: 190, OutputTokens: 20, CacheReadTokens: 80, CacheWriteTokens: 10}
			if resp.Usage != want {
				t.Errorf("usage %+v, want %+v", resp.Usage, want)
			}
		})
	}
}

// TestDecodeRejects checks that answers this adapter cannot represent fail
// with a precise error instead of losing content.
func TestDecodeRejects(t *testing.T) {
	tests := []struct {
		name, reply, want string
	}{
		{"unsupported block", messageReply("end_turn", `[{"type":"web_search_tool_result","tool_use_id":"x","content":[]}]`).body, `response block of type "web_search_tool_result" is not supported`},
		{"unsupported server tool", messageReply("end_turn", `[{"type":"server_tool_use","id":"s","name":"web_search","input":{"query":"x"}}]`).body, `server tool "web_search" is not supported`},
		{"search result without a call id", messageReply("end_turn", `[{"type":"tool_search_tool_result","content":{"type":"tool_search_tool_search_result","tool_references":[]}}]`).body, `tool search result without a tool_use_id`},
		{"unknown stop reason", messageReply("sleepy", answerBlocks).body, `unknown stop reason "sleepy"`},
		// Blocks kept as they came must read back: a key given twice would
		// not, and the SDK and the provider may each read another value.
		{"thinking block with a key twice", `{"content":[{"type":"thinking","type":{}}],"stop_reason":"tool_use"}`, `anthropic: thinking block: duplicate object key "type"`},
		{"redacted thinking with a key twice", messageReply("end_turn", `[{"type":"redacted_thinking","data":"a","data":"b"}]`).body, `anthropic: redacted_thinking block: duplicate object key "data"`},
		{"server tool use with a key twice", messageReply("end_turn", `[{"type":"server_tool_use","id":"s","name":"tool_search_tool_bm25","input":{"query":"a","query":"b"}}]`).body, `anthropic: server_tool_use block: duplicate object key "query" at "/input"`},
		{"search result with a key twice", messageReply("end_turn", `[`+serverToolUse+`,{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[],"tool_references":[]}}]`).body, `anthropic: tool_search_tool_result block: duplicate object key "tool_references"`},
		{"later search result with a key twice", messageReply("end_turn", `[{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","tool_use_id":"srvtoolu_2","content":{"type":"tool_search_tool_search_result","tool_references":[]}}]`).body, `anthropic: tool_search_tool_result block: duplicate object key "tool_use_id"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, reply{body: tt.reply})
			c := api.client(WithHostedSearch(SearchBM25))
			_, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestRequestRejected checks requests refused before anything is sent.
func TestRequestRejected(t *testing.T) {
	c := New(WithAPIKey("unused"), WithBaseURL("http://127.0.0.1:1"))
	base := func() *model.Request { return request(t, c, nativeModel, opening()) }
	tests := []struct {
		name string
		edit func(*model.Request)
		rule model.Rule
	}{
		{"no model", func(r *model.Request) { r.Model = "" }, RuleModel},
		{"no max tokens", func(r *model.Request) { r.MaxOutputTokens = 0 }, RuleMaxTokens},
		{"system message later", func(r *model.Request) {
			r.Messages = append(r.Messages, model.SystemMessage("late"))
		}, RuleSystem},
		{"deferred tools without discovery", func(r *model.Request) {
			r.Tools = r.Tools[:1]
			r.Discovery.Enabled = false
		}, "deferred"},
		{"too many strict deferred tools", func(r *model.Request) {
			for i := range 21 {
				r.Discovery.Deferred = append(r.Discovery.Deferred, model.ToolDefinition{Name: fmt.Sprintf("strict_%d", i), Parameters: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`), Strict: true})
			}
		}, RuleStrict},
		{"too many deferred tools", func(r *model.Request) {
			for i := range maxDeferredTools + 1 {
				r.Discovery.Deferred = append(r.Discovery.Deferred, model.ToolDefinition{Name: fmt.Sprintf("tool_%d", i), Parameters: json.RawMessage(`{"type":"object"}`)})
			}
		}, RuleDeferredLimit},
		{"too many optional strict parameters", func(r *model.Request) {
			// 5 tools of 5 optional parameters: 25 across the request.
			for i := range 5 {
				r.Discovery.Deferred = append(r.Discovery.Deferred, model.ToolDefinition{Name: fmt.Sprintf("opt_%d", i), Strict: true,
					Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"}},"additionalProperties":false}`)})
			}
		}, RuleStrictComplexity},
		{"too many union-typed strict parameters", func(r *model.Request) {
			// 17 tools of one nullable parameter each: 17 unions.
			for i := range 17 {
				r.Discovery.Deferred = append(r.Discovery.Deferred, model.ToolDefinition{Name: fmt.Sprintf("union_%d", i), Strict: true,
					Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`)})
			}
		}, RuleStrictComplexity},
		{"empty user turn", func(r *model.Request) {
			r.Messages = []model.Message{model.SystemMessage("s"), model.UserMessage("")}
		}, RuleEmptyTurn},
		{"colliding names", func(r *model.Request) {
			r.Tools = []model.ToolDefinition{lookupTool, {Name: "records_lookup", Parameters: lookupTool.Parameters}}
			r.Discovery = model.Discovery{}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := base()
			tt.edit(req)
			_, err := c.Complete(context.Background(), req)
			if !errors.Is(err, model.ErrInvalidRequest) {
				t.Fatalf("error %v, want model.ErrInvalidRequest", err)
			}
			var ve *model.ValidationError
			if tt.rule == "" {
				if !errors.Is(err, discovery.ErrNameCollision) {
					t.Fatalf("error %v, want discovery.ErrNameCollision", err)
				}
				return
			}
			if !errors.As(err, &ve) || ve.Rule != tt.rule {
				t.Fatalf("error %v, want rule %q", err, tt.rule)
			}
		})
	}
}

// TestEmptyAnswerContinues checks that an answer cut off before any content
// (here by max_tokens; a Responses history has such answers with reasoning
// only) stays in the history without making the next request one the API
// refuses: it renders no turn, and the user turns around it merge.
func TestEmptyAnswerContinues(t *testing.T) {
	api := newFakeAPI(t, messageReply("max_tokens", `[]`), textReply("Done."))
	c := api.client()
	resp, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinishReason != model.FinishLength || len(resp.Message.Parts) != 0 {
		t.Fatalf("cut-off answer decoded as %+v", resp)
	}
	history := append(opening(), resp.Message, model.UserMessage("Go on."))
	if _, err := c.Complete(context.Background(), request(t, c, nativeModel, history)); err != nil {
		t.Fatalf("continuing after an empty answer: %v", err)
	}
	var body struct {
		Messages []struct {
			Role    string
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal(api.body(1), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 1 || body.Messages[0].Role != "user" || len(body.Messages[0].Content) != 2 || body.Messages[0].Content[1].Text != "Go on." {
		t.Fatalf("turns %+v, want one user turn with both texts", body.Messages)
	}
}
