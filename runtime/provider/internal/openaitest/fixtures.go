package openaitest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// IDParams is the parameter schema of records_lookup.
const IDParams = `{"type":"object","properties":{"id":{"type":"string","description":"Record id"}},"required":["id"],"additionalProperties":false}`

// SearchParams is the parameter schema of records_search.
const SearchParams = `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`

// Catalog is a permitted catalog of four deferred tools in two toolsets
// (records: lookup, search, analyze; billing: refund).
func Catalog(t testing.TB) *discovery.Catalog {
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
		entry("records", "lookup", "Look up a customer record by id", IDParams),
		entry("records", "search", "Search customer records by keywords", SearchParams),
		entry("records", "analyze", "Analyze a set of records for trends", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`),
		entry("billing", "refund", "Refund an invoice", `{"type":"object","properties":{"invoice":{"type":"string"},"amount":{"type":"number","minimum":0.01}},"required":["invoice"]}`),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// AppTools are the application's always-declared tools.
func AppTools() []model.ToolDefinition {
	return []model.ToolDefinition{{
		Name:        "get_time",
		Description: "Current time in a time zone",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"zone":{"type":"string"}},"required":["zone"],"additionalProperties":false}`),
		Strict:      true,
	}}
}

// Start is the history every test conversation starts with.
func Start() []model.Message {
	return []model.Message{
		model.SystemMessage("You help with customer records."),
		model.UserMessage("Is record r1 late?"),
	}
}

// Prepare builds the request for history as the agent runtime does:
// discovery.Prepare with the run's catalog (nil for none).
func Prepare(t testing.TB, c model.Client, modelID string, history []model.Message, cat *discovery.Catalog) *model.Request {
	t.Helper()
	req := &model.Request{
		Model:           modelID,
		Messages:        history,
		Tools:           AppTools(),
		Discovery:       model.Discovery{Enabled: true, Description: "Customer records and billing."},
		MaxOutputTokens: 1024,
	}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), cat); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return req
}

// RunLoop drives a discover -> call -> answer loop as the agent runtime
// does: prepare, complete, answer discovery calls from the catalog (two
// tools at most) and tool calls with a canned record, until the model
// answers without calls. It returns the history.
func RunLoop(t testing.TB, c model.Client, modelID string, cat *discovery.Catalog, history []model.Message) []model.Message {
	t.Helper()
	for step := 1; ; step++ {
		if step > 5 {
			t.Fatal("the loop did not end")
		}
		resp, err := c.Complete(context.Background(), Prepare(t, c, modelID, history, cat))
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

// WantHistory is the neutral history of the loop on every adapter and
// rendering.
func WantHistory() []model.Message {
	return []model.Message{
		model.SystemMessage("You help with customer records."),
		model.UserMessage("Is record r1 late?"),
		{Role: model.RoleAssistant, Parts: []model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "call_s1", Query: "look up a record"})}},
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "call_s1", Tools: []model.ToolSnapshot{
			{Name: "records_lookup", Description: "Look up a customer record by id", Parameters: json.RawMessage(IDParams), Namespace: "records"},
			{Name: "records_search", Description: "Search customer records by keywords", Parameters: json.RawMessage(SearchParams), Namespace: "records"},
		}}),
		{Role: model.RoleAssistant, Parts: []model.Part{model.ToolCallPart(model.ToolCall{ID: "call_f1", Name: "records_lookup", Arguments: json.RawMessage(`{"id":"r1"}`)})}},
		model.ToolMessage(model.ToolResult{CallID: "call_f1", Name: "records_lookup", Content: `{"id":"r1","status":"late"}`}),
		{Role: model.RoleAssistant, Parts: []model.Part{model.TextPart("Record r1 is late.")}},
	}
}

// StripMeta returns a copy of msgs without provider records: message
// Meta and reasoning parts, which only their provider reads.
func StripMeta(msgs []model.Message) []model.Message {
	out := make([]model.Message, len(msgs))
	for i, m := range msgs {
		m.Meta = nil
		var parts []model.Part
		for _, p := range m.Parts {
			if p.Kind != model.PartReasoning {
				parts = append(parts, p)
			}
		}
		if len(parts) != len(m.Parts) {
			m.Parts = parts
		}
		out[i] = m
	}
	return out
}
