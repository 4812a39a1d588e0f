package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// assistantContent returns the content blocks of the assistant turns of a
// recorded request body, in order.
func assistantContent(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			out = append(out, m.Content...)
		}
	}
	return out
}

// TestThinkingSentBack checks that thinking blocks go back on the next
// request exactly as they came, and that reasoning another provider made
// is dropped.
func TestThinkingSentBack(t *testing.T) {
	api := newFakeAPI(t, messageReply("tool_use", `[`+thinkingBlock+`,`+redactedThinkingBlock+`,`+callBlocks[1:]), textReply("Refunded."))
	c := api.client()
	resp, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
	if err != nil {
		t.Fatal(err)
	}
	other := model.ReasoningPart(model.Reasoning{Text: "elsewhere"}, "openai", []byte(`{"type":"reasoning","id":"rs_1","summary":[]}`))
	msg := resp.Message
	msg.Parts = append([]model.Part{other}, msg.Parts...)
	history := append(opening(), msg,
		model.ToolMessage(model.ToolResult{CallID: "toolu_c1", Name: "billing_refund", Content: `{"status":"refunded"}`}))
	if _, err := c.Complete(context.Background(), request(t, c, nativeModel, history)); err != nil {
		t.Fatal(err)
	}
	got := assistantContent(t, api.body(1))
	if len(got) != 3 {
		t.Fatalf("assistant blocks %s, want thinking, redacted thinking and the call", got)
	}
	for i, want := range []string{thinkingBlock, redactedThinkingBlock} {
		if string(got[i]) != want {
			t.Errorf("block %d is %s, want %s byte for byte", i, got[i], want)
		}
	}
}

// TestHostedCallWithoutResultSentBackAsItCame checks that a hosted search
// whose result the provider has yet to give (the turn also called a client
// tool) goes back as its server_tool_use block alone, although the
// application answered the call, and that the result arriving in the next
// response is kept and sent back alone too.
func TestHostedCallWithoutResultSentBackAsItCame(t *testing.T) {
	first := messageReply("tool_use", `[`+serverToolUse+`,`+callBlocks[1:])
	second := messageReply("end_turn", `[`+toolSearchResult+`,{"type":"text","text":"Refunded."}]`)
	api := newFakeAPI(t, first, second, textReply("ok"))
	c := api.client(WithHostedSearch(SearchBM25))
	history := opening()
	for range 2 {
		resp, err := c.Complete(context.Background(), request(t, c, nativeModel, history))
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, resp.Message)
		var found []model.DiscoveryResult
		for _, call := range resp.DiscoveryCalls() {
			found = append(found, answer(t, call))
		}
		if len(found) > 0 {
			history = append(history, model.DiscoveryMessage(found...))
		}
		if calls := resp.ToolCalls(); len(calls) > 0 {
			history = append(history, model.ToolMessage(model.ToolResult{CallID: calls[0].ID, Name: calls[0].Name, Content: `{"status":"refunded"}`}))
		}
	}
	history = append(history, model.UserMessage("Thanks."))
	if _, err := c.Complete(context.Background(), request(t, c, nativeModel, history)); err != nil {
		t.Fatal(err)
	}
	second1 := assistantContent(t, api.body(1))
	if len(second1) != 2 || !jsonEqual(t, second1[0], serverToolUse) {
		t.Fatalf("second request's assistant blocks %s, want the server_tool_use as it came, then the call", second1)
	}
	third := assistantContent(t, api.body(2))
	if len(third) != 4 || !jsonEqual(t, third[2], toolSearchResult) {
		t.Fatalf("third request's assistant blocks %s, want the later result block as it came", third)
	}
	for _, b := range third {
		var head struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
		}
		_ = json.Unmarshal(b, &head)
		if head.Type == "tool_search_tool_result" && string(b) != toolSearchResult {
			t.Errorf("a rebuilt search result was sent: %s", b)
		}
	}
}
