package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// messageReply is a canned Messages API answer with the given content
// blocks and stop reason.
func messageReply(stop, content string) reply {
	return reply{body: `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":` + content +
		`,"stop_reason":"` + stop + `","stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":80,"cache_creation_input_tokens":10}}`}
}

const (
	clientSearchBlocks    = `[{"type":"text","text":"Searching."},{"type":"tool_use","id":"toolu_d1","name":"tool_search","input":{"query":"refund invoice"}}]`
	callBlocks            = `[{"type":"tool_use","id":"toolu_c1","name":"billing_refund","input":{"invoice": "i1"}}]`
	answerBlocks          = `[{"type":"text","text":"Refunded."}]`
	serverToolUse         = `{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{"query":"refund invoice"}}`
	toolSearchResult      = `{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"billing_refund"}]}}`
	thinkingBlock         = `{"type":"thinking","thinking":"The user wants a refund.","signature":"EqQBCkYIBxgCKkA0c2lnbmF0dXJl"}`
	redactedThinkingBlock = `{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzGmq"}`
	hostedBlocks          = `[` + serverToolUse + `,` + toolSearchResult + `,{"type":"tool_use","id":"toolu_c1","name":"billing_refund","input":{"invoice":"i1"}}]`
)

// runLoop plays a run against api: each response's discovery calls are
// answered from the catalog and its tool calls with a fixed result, until
// a response has no calls. It returns the final history.
func runLoop(t *testing.T, c *Client, modelID string, steps int) []model.Message {
	t.Helper()
	history := opening()
	for i := 0; i < steps; i++ {
		resp, err := c.Complete(context.Background(), request(t, c, modelID, history))
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		history = append(history, resp.Message)
		if resp.FinishReason != model.FinishToolCalls {
			return history
		}
		var found []model.DiscoveryResult
		for _, call := range resp.DiscoveryCalls() {
			found = append(found, answer(t, call))
		}
		if len(found) > 0 {
			history = append(history, model.DiscoveryMessage(found...))
		}
		var results []model.ToolResult
		for _, call := range resp.ToolCalls() {
			results = append(results, model.ToolResult{CallID: call.ID, Name: call.Name, Content: `{"status":"refunded"}`})
		}
		if len(results) > 0 {
			history = append(history, model.ToolMessage(results...))
		}
	}
	t.Fatalf("run did not end in %d steps", steps)
	return nil
}

// TestLoop runs discover -> call -> answer against canned provider answers
// in each rendering and checks the final request and history.
func TestLoop(t *testing.T) {
	tests := []struct {
		name    string
		model   string
		opts    []Option
		replies []reply
	}{
		{"client_search", nativeModel, nil, []reply{messageReply("tool_use", clientSearchBlocks), messageReply("tool_use", callBlocks), messageReply("end_turn", answerBlocks)}},
		{"hosted_bm25", nativeModel, []Option{WithHostedSearch(SearchBM25)}, []reply{messageReply("tool_use", hostedBlocks), messageReply("end_turn", answerBlocks)}},
		{"emulated", emulatedModel, nil, []reply{messageReply("tool_use", clientSearchBlocks), messageReply("tool_use", callBlocks), messageReply("end_turn", answerBlocks)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, tt.replies...)
			c := api.client(tt.opts...)
			history := runLoop(t, c, tt.model, len(tt.replies))
			if err := discovery.ValidateHistory(history); err != nil {
				t.Fatalf("final history: %v", err)
			}
			if got := history[len(history)-1].Text(); got != "Refunded." {
				t.Fatalf("final answer %q", got)
			}
			calls := 0
			for _, m := range history {
				for _, call := range m.ToolCalls() {
					calls++
					if call.Name != "billing_refund" || string(call.Arguments) != `{"invoice":"i1"}` {
						t.Errorf("tool call %+v", call)
					}
				}
			}
			if calls != 1 {
				t.Errorf("%d tool calls, want 1", calls)
			}
			checkGolden(t, "loop_"+tt.name+"_final", api.body(len(tt.replies)-1))
		})
	}
}

// TestHostedRecordsSentBack checks that the provider's search blocks are
// kept in the history's metadata, survive storing and reloading it, and go
// back to the provider unchanged.
func TestHostedRecordsSentBack(t *testing.T) {
	api := newFakeAPI(t, messageReply("tool_use", hostedBlocks), messageReply("end_turn", answerBlocks), messageReply("end_turn", answerBlocks))
	c := api.client(WithHostedSearch(SearchBM25))
	history := runLoop(t, c, nativeModel, 2)

	call := history[2].Parts[0]
	if call.Kind != model.PartDiscoveryCall || call.DiscoveryCall.ID != "srvtoolu_1" || !cmp.Equal(call.DiscoveryCall.Names, []string{"billing_refund"}) {
		t.Fatalf("hosted search decoded as %+v", call)
	}
	first := api.body(1)
	for _, block := range []string{serverToolUse, toolSearchResult} {
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(block)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(first, buf.Bytes()) {
			t.Errorf("request does not carry the provider's block verbatim:\n%s\nin\n%s", buf.Bytes(), first)
		}
	}

	stored, err := json.Marshal(history[:len(history)-1])
	if err != nil {
		t.Fatal(err)
	}
	var reloaded []model.Message
	if err := json.Unmarshal(stored, &reloaded); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), request(t, c, nativeModel, reloaded)); err != nil {
		t.Fatal(err)
	}
	if again := api.body(2); !bytes.Equal(first, again) {
		t.Errorf("a stored and reloaded history renders differently:\n%s\n%s", first, again)
	}
}

// TestSwitchRendering continues one history under each other rendering: a
// hosted-search history on client search, on emulation and on an older
// model, and a client-search history on hosted search.
func TestSwitchRendering(t *testing.T) {
	hostedAPI := newFakeAPI(t, messageReply("tool_use", hostedBlocks), messageReply("end_turn", answerBlocks))
	hosted := runLoop(t, hostedAPI.client(WithHostedSearch(SearchBM25)), nativeModel, 2)
	clientAPI := newFakeAPI(t, messageReply("tool_use", clientSearchBlocks), messageReply("tool_use", callBlocks), messageReply("end_turn", answerBlocks))
	client := runLoop(t, clientAPI.client(), nativeModel, 3)

	tests := []struct {
		name    string
		history []model.Message
		model   string
		opts    []Option
	}{
		{"hosted_to_client_search", hosted, nativeModel, nil},
		{"hosted_to_forced_emulation", hosted, nativeModel, []Option{WithEmulation()}},
		{"hosted_to_older_model", hosted, emulatedModel, nil},
		{"client_search_to_hosted", client, nativeModel, []Option{WithHostedSearch(SearchRegex)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, textReply("Done."))
			c := api.client(tt.opts...)
			history := append(append([]model.Message(nil), tt.history...), model.UserMessage("Thanks. Anything else?"))
			if _, err := c.Complete(context.Background(), request(t, c, tt.model, history)); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "switch_"+tt.name, api.body(0))
		})
	}
}
