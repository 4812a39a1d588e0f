package openaitest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// verbs and nouns make the names and descriptions of a large catalog.
var (
	verbs = []string{"get", "list", "create", "update", "delete", "search", "export", "archive", "approve", "summarize"}
	nouns = []string{"invoice", "customer", "order", "ticket", "shipment", "contract", "payment", "report", "account", "product"}
)

// LargeCatalog returns a permitted catalog of n deferred tools in toolsets
// of ten (n/10 toolsets), each with a one-sentence description and a
// parameter schema of four described properties, as a service's generated
// tools have, and the same tools as definitions for declaring every tool
// eagerly.
func LargeCatalog(t testing.TB, n int) (*discovery.Catalog, []model.ToolDefinition) {
	t.Helper()
	entries := make([]discovery.Entry, n)
	eager := make([]model.ToolDefinition, n)
	for i := range n {
		toolset := fmt.Sprintf("svc%03d", i/10)
		verb, noun := verbs[i%10], nouns[(i/10)%10]
		tool := verb + "_" + noun
		params, err := json.Marshal(map[string]any{
			"type": "object",
			"properties": map[string]any{
				"id":     map[string]any{"type": "string", "description": fmt.Sprintf("Identifier of the %s.", noun)},
				"fields": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Fields to include in the answer."},
				"limit":  map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "description": "Largest number of items returned."},
				"reason": map[string]any{"type": "string", "description": "Why the call is made, for the audit log."},
			},
			"required":             []string{"id"},
			"additionalProperties": false,
		})
		if err != nil {
			t.Fatal(err)
		}
		s := model.ToolSnapshot{
			Name:        toolset + "_" + tool,
			Description: fmt.Sprintf("%s a %s in the %s service and return it with its status and history.", verb, noun, toolset),
			Parameters:  params,
			Namespace:   toolset,
		}
		entries[i] = discovery.Entry{Name: toolset + "." + tool, Snapshot: s}
		eager[i] = model.ToolDefinition{Name: s.Name, Description: s.Description, Parameters: s.Parameters}
	}
	cat, err := discovery.NewCatalog(entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat, eager
}

// Declarations returns the bytes of the "tools" member of a request body:
// what the model sees of the declared tools.
func Declarations(t testing.TB, body []byte) int {
	t.Helper()
	var b struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	return len(b.Tools)
}

// DeferredFirstRequest prepares the first request of a conversation over
// the catalog: the application's tools and discovery on.
func DeferredFirstRequest(t testing.TB, c model.Client, modelID string, cat *discovery.Catalog) *model.Request {
	t.Helper()
	return Prepare(t, c, modelID, Start(), cat)
}

// EagerFirstRequest prepares the same request declaring every tool of the
// catalog (eager) next to the application's tools, discovery off.
func EagerFirstRequest(t testing.TB, c model.Client, modelID string, eager []model.ToolDefinition) *model.Request {
	t.Helper()
	req := &model.Request{
		Model:           modelID,
		Messages:        Start(),
		Tools:           append(AppTools(), eager...),
		MaxOutputTokens: 1024,
	}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), nil); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return req
}

// DiscoveredHistory is a conversation in which one discovery call found
// the given tools of the catalog and the model then called each of them
// once, every call answered.
func DiscoveredHistory(t testing.TB, cat *discovery.Catalog, found []model.ToolDefinition) []model.Message {
	t.Helper()
	names := make([]string, len(found))
	for i, d := range found {
		names[i] = d.Name
	}
	call := model.DiscoveryCall{ID: "d1", Names: names}
	result, err := cat.Answer(call, len(names))
	if err != nil {
		t.Fatal(err)
	}
	history := append(Start(), model.AssistantMessage(model.DiscoveryCallPart(call)), model.DiscoveryMessage(result))
	var calls []model.Part
	var results []model.ToolResult
	for i, n := range names {
		id := fmt.Sprintf("c%d", i)
		calls = append(calls, model.ToolCallPart(model.ToolCall{ID: id, Name: n, Arguments: json.RawMessage(`{"id":"x1"}`)}))
		results = append(results, model.ToolResult{CallID: id, Name: n, Content: `{"status":"ok"}`})
	}
	return append(history, model.AssistantMessage(calls...), model.ToolMessage(results...), model.UserMessage("Next?"))
}
