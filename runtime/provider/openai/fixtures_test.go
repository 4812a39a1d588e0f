package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

const (
	nativeModel   = "gpt-5.4"
	emulatedModel = "gpt-4.1"
)

const idParams = `{"type":"object","properties":{"id":{"type":"string","description":"Record id"}},"required":["id"],"additionalProperties":false}`

// testCatalog is a permitted catalog of four deferred tools in two toolsets.
func testCatalog(t testing.TB) *discovery.Catalog {
	t.Helper()
	entry := func(toolset, tool, desc, params string) discovery.Entry {
		return discovery.Entry{
			Name: toolset + "." + tool,
			Snapshot: model.ToolSnapshot{
				Name:        toolset + "_" + tool,
				Description: desc,
				Parameters:  json.RawMessage(params),
				Namespace:   toolset,
			},
		}
	}
	cat, err := discovery.NewCatalog([]discovery.Entry{
		entry("records", "lookup", "Look up a customer record by id", idParams),
		entry("records", "search", "Search customer records by keywords", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`),
		entry("records", "analyze", "Analyze a set of records for trends", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`),
		entry("billing", "refund", "Refund an invoice", `{"type":"object","properties":{"invoice":{"type":"string"},"amount":{"type":"number","minimum":0.01}},"required":["invoice"]}`),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// appTools are the application's always-declared tools.
func appTools() []model.ToolDefinition {
	return []model.ToolDefinition{{
		Name:        "get_time",
		Description: "Current time in a time zone",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"zone":{"type":"string"}},"required":["zone"],"additionalProperties":false}`),
		Strict:      true,
	}}
}

// prepare builds the request for history as the agent runtime does:
// discovery.Prepare with the run's catalog.
func prepare(t testing.TB, c *Client, modelID string, history []model.Message, cat *discovery.Catalog) *model.Request {
	t.Helper()
	req := &model.Request{
		Model:           modelID,
		Messages:        history,
		Tools:           appTools(),
		Discovery:       model.Discovery{Enabled: true, Description: "Customer records and billing."},
		MaxOutputTokens: 1024,
	}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), cat); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return req
}

func start() []model.Message {
	return []model.Message{
		model.SystemMessage("You help with customer records."),
		model.UserMessage("Is record r1 late?"),
	}
}

const usageJSON = `"usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":100},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":8},"total_tokens":140}`

// responseJSON is a completed response with the given output items.
func responseJSON(modelID string, items ...string) string {
	out := "["
	for i, it := range items {
		if i > 0 {
			out += ","
		}
		out += it
	}
	return fmt.Sprintf(`{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":%q,"output":%s],%s}`, modelID, out, usageJSON)
}

const (
	reasoningItem  = `{"type":"reasoning","id":"rs_1","summary":[]}`
	searchCallItem = `{"type":"tool_search_call","id":"tsc_1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"look up a record"}}`
	nsCallItem     = `{"type":"function_call","id":"fc_1","call_id":"call_f1","namespace":"records","name":"lookup","arguments":"{\"id\": \"r1\"}","status":"completed"}`
	emuSearchItem  = `{"type":"function_call","id":"fc_0","call_id":"call_s1","name":"tool_search","arguments":"{\"query\":\"look up a record\"}","status":"completed"}`
	flatCallItem   = `{"type":"function_call","id":"fc_1","call_id":"call_f1","name":"records_lookup","arguments":"{\"id\": \"r1\"}","status":"completed"}`
	answerItem     = `{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Record r1 is late.","annotations":[]}]}`
)

// loopReplies are the provider's answers in a discover -> call -> answer
// loop: a discovery call, a call of the discovered records_lookup, the
// final answer.
func loopReplies(native bool) []reply {
	if native {
		return []reply{
			{Body: responseJSON(nativeModel, reasoningItem, searchCallItem)},
			{Body: responseJSON(nativeModel, nsCallItem)},
			{Body: responseJSON(nativeModel, answerItem)},
		}
	}
	return []reply{
		{Body: responseJSON(emulatedModel, emuSearchItem)},
		{Body: responseJSON(emulatedModel, flatCallItem)},
		{Body: responseJSON(emulatedModel, answerItem)},
	}
}

// runLoop drives the loop as the agent runtime does: prepare, complete,
// answer discovery calls from the catalog and tool calls with a canned
// record, until the model answers. It returns the history.
func runLoop(t testing.TB, c *Client, modelID string, cat *discovery.Catalog, history []model.Message) []model.Message {
	t.Helper()
	for step := 1; ; step++ {
		if step > 5 {
			t.Fatal("the loop did not end")
		}
		resp, err := c.Complete(context.Background(), prepare(t, c, modelID, history, cat))
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		history = append(history, resp.Message)
		if resp.FinishReason != model.FinishToolCalls {
			return history
		}
		var results []model.DiscoveryResult
		for _, call := range resp.DiscoveryCalls() {
			r, err := cat.Answer(call, 2)
			if err != nil {
				t.Fatalf("step %d: answer: %v", step, err)
			}
			results = append(results, r)
		}
		if len(results) > 0 {
			history = append(history, model.DiscoveryMessage(results...))
		}
		var outs []model.ToolResult
		for _, call := range resp.ToolCalls() {
			outs = append(outs, model.ToolResult{CallID: call.ID, Name: call.Name, Content: `{"id":"r1","status":"late"}`})
		}
		if len(outs) > 0 {
			history = append(history, model.ToolMessage(outs...))
		}
	}
}
