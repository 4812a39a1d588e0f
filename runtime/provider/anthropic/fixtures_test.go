package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

const (
	nativeModel   = "claude-sonnet-4-5-20250929"
	emulatedModel = "claude-sonnet-4-20250514"
)

var (
	// lookupTool is an application tool whose name is not legal for the
	// provider: it travels as "records_lookup".
	lookupTool = model.ToolDefinition{
		Name:        "records.lookup",
		Description: "Look up a record by id",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
	}
	// entries are the permitted deferred catalog.
	entries = []discovery.Entry{
		{Name: "billing.refund", Snapshot: model.ToolSnapshot{Name: "billing_refund", Description: "Refund an invoice", Parameters: json.RawMessage(`{"type":"object","properties":{"invoice":{"type":"string"}},"required":["invoice"]}`)}},
		{Snapshot: model.ToolSnapshot{Name: "billing_invoices", Description: "List the invoices of a customer", Parameters: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}}}`)}},
		{Snapshot: model.ToolSnapshot{Name: "records_analyze", Description: "Analyze a set of records", Parameters: json.RawMessage(`{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`)}},
	}
)

func newCatalog(t testing.TB) *discovery.Catalog {
	t.Helper()
	c, err := discovery.NewCatalog(entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// answer answers a discovery call from the catalog, as the runtime does.
func answer(t testing.TB, c model.DiscoveryCall) model.DiscoveryResult {
	t.Helper()
	r, err := newCatalog(t).Answer(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// request prepares a request for history with package discovery, as the
// runtime does: the application's tool, discovery on, the catalog.
func request(t testing.TB, c *Client, modelID string, history []model.Message) *model.Request {
	t.Helper()
	req := &model.Request{
		Model:           modelID,
		Messages:        history,
		Tools:           []model.ToolDefinition{lookupTool},
		Discovery:       model.Discovery{Enabled: true},
		MaxOutputTokens: 1024,
	}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), newCatalog(t)); err != nil {
		t.Fatal(err)
	}
	return req
}

func opening() []model.Message {
	return []model.Message{
		model.SystemMessage("You help with billing."),
		model.UserMessage("Refund invoice i1."),
	}
}

// steps is a discover -> call -> answer history, cut after each step.
func steps(t *testing.T) [][]model.Message {
	call := model.DiscoveryCall{ID: "toolu_d1", Query: "refund invoice"}
	h1 := opening()
	h2 := append(append([]model.Message(nil), h1...),
		model.AssistantMessage(model.TextPart("Let me find a tool."), model.DiscoveryCallPart(call)),
		model.DiscoveryMessage(answer(t, call)),
	)
	h3 := append(append([]model.Message(nil), h2...),
		model.AssistantMessage(model.ToolCallPart(model.ToolCall{ID: "toolu_c1", Name: "billing_refund", Arguments: json.RawMessage(`{"invoice":"i1"}`)})),
		model.ToolMessage(model.ToolResult{CallID: "toolu_c1", Name: "billing_refund", Content: `{"status":"refunded"}`}),
	)
	return [][]model.Message{h1, h2, h3}
}
