package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

const (
	nativeModel   = "claude-sonnet-4-5-20250929"
	emulatedModel = "claude-sonnet-4-20250514"
)

var (
	lookupTool = model.ToolDefinition{
		Name:        "records_lookup",
		Description: "Look up a record by id",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
	}
	findTools = model.ToolDefinition{
		Name:        "find_tools",
		Description: "Find tools by keywords or exact names.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"names":{"type":"array","items":{"type":"string"}}}}`),
		Kind:        model.ToolDiscovery,
	}
	// catalog is the permitted deferred catalog; "billing.refund" is not a
	// legal provider name and travels as "billing_refund".
	catalog = []model.ToolDefinition{
		{Name: "billing.refund", Description: "Refund an invoice", Parameters: json.RawMessage(`{"type":"object","properties":{"invoice":{"type":"string"}},"required":["invoice"]}`)},
		{Name: "billing_invoices", Description: "List invoices of a customer", Parameters: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}}}`)},
		{Name: "records_analyze", Description: "Analyze a set of records", Parameters: json.RawMessage(`{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}}}`)},
	}
)

// snapshot returns the catalog entry name as a discovery snapshot.
func snapshot(t *testing.T, name string) model.ToolSnapshot {
	t.Helper()
	for _, d := range catalog {
		if d.Name == name {
			return model.ToolSnapshot{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
		}
	}
	t.Fatalf("no catalog tool %q", name)
	return model.ToolSnapshot{}
}

// answer is a test double of package discovery answering a discovery call
// from the catalog: exact names first, then every tool whose description
// holds a query word.
func answer(t *testing.T, c model.DiscoveryCall) model.DiscoveryResult {
	t.Helper()
	r := model.DiscoveryResult{CallID: c.ID}
	seen := map[string]bool{}
	for _, n := range c.Names {
		r.Tools = append(r.Tools, snapshot(t, n))
		seen[n] = true
	}
	for _, w := range strings.Fields(strings.ToLower(c.Query)) {
		for _, d := range catalog {
			if !seen[d.Name] && strings.Contains(strings.ToLower(d.Description), w) {
				r.Tools = append(r.Tools, snapshot(t, d.Name))
				seen[d.Name] = true
			}
		}
	}
	if len(r.Tools) == 0 {
		r.Note = "no permitted tool matches"
	}
	return r
}

// request is a test double of package discovery building a request: the
// application's tools, the discovery tool, then the tools discovered in
// the history in order of first discovery, and the deferred catalog.
func request(modelID string, history []model.Message) *model.Request {
	req := &model.Request{
		Model:           modelID,
		Messages:        history,
		Tools:           []model.ToolDefinition{lookupTool, findTools},
		Discovery:       model.Discovery{Enabled: true, Deferred: catalog},
		MaxOutputTokens: 1024,
	}
	seen := map[string]bool{}
	for _, m := range history {
		for _, p := range m.Parts {
			if p.Kind != model.PartDiscoveryResult {
				continue
			}
			for _, s := range p.DiscoveryResult.Tools {
				if !seen[s.Name] {
					seen[s.Name] = true
					req.Tools = append(req.Tools, s.Definition())
				}
			}
		}
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
		model.AssistantMessage(model.ToolCallPart(model.ToolCall{ID: "toolu_c1", Name: "billing.refund", Arguments: json.RawMessage(`{"invoice":"i1"}`)})),
		model.ToolMessage(model.ToolResult{CallID: "toolu_c1", Name: "billing.refund", Content: `{"status":"refunded"}`}),
	)
	return [][]model.Message{h1, h2, h3}
}
