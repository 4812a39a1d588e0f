package discovery

import (
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/google/go-cmp/cmp"
)

// TestConversationRoundTrip stores a whole conversation as JSON, reloads
// it and checks that it is still valid and declares the same bytes: a
// history can be stored and continued, and the prompt cache stays warm.
func TestConversationRoundTrip(t *testing.T) {
	lookup := strictSnap("records_lookup")
	lookup.Namespace = "records"
	history := []model.Message{
		model.SystemMessage("You help with records."),
		model.UserMessage("Find record r1, then search for late ones."),
		{
			Role: model.RoleAssistant,
			Parts: []model.Part{
				model.TextPart("Let me find the tools."),
				{
					Kind:          model.PartDiscoveryCall,
					DiscoveryCall: &model.DiscoveryCall{ID: "d1", Names: []string{"records_lookup"}, Query: "search records"},
					Meta:          map[string]json.RawMessage{"anthropic": json.RawMessage(`{"type":"server_tool_use","id":"srvtoolu_1"}`)},
				},
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Query: "delete everything"}),
			},
			Meta: map[string]json.RawMessage{"openai": json.RawMessage(`[{"type":"tool_search_call","id":"ts_1"}]`)},
		},
		model.DiscoveryMessage(
			result("d1", lookup, snap("records_search")),
			model.DiscoveryResult{CallID: "d2", Note: "No available tool matches the query \"delete everything\"."},
		),
		model.AssistantMessage(
			model.ToolCallPart(model.ToolCall{ID: "c1", Name: "records_lookup", Arguments: json.RawMessage(`{"id":"r1"}`)}),
			model.ToolCallPart(model.ToolCall{ID: "c2", Name: "records_search", MalformedArguments: `{"q": "late"`}),
		),
		model.ToolMessage(
			model.ToolResult{CallID: "c1", Name: "records_lookup", Content: `{"id":"r1","status":"late"}`},
			model.ToolResult{CallID: "c2", Name: "records_search", Content: "arguments are not valid JSON", IsError: true},
		),
		model.AssistantMessage(model.TextPart("Record r1 is late.")),
	}
	opts := Options{Enabled: true, Description: "Records load on demand.", Strict: model.StrictLimits{Supported: true}}
	before, err := Declare([]model.ToolDefinition{appTool("notes")}, history, opts)
	if err != nil {
		t.Fatalf("Declare: %v", err)
	}
	data, err := json.Marshal(history)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var reloaded []model.Message
	if err := json.Unmarshal(data, &reloaded); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if diff := cmp.Diff(history, reloaded); diff != "" {
		t.Fatalf("round trip changed the history (-before +after):\n%s", diff)
	}
	after, err := Declare([]model.ToolDefinition{appTool("notes")}, reloaded, opts)
	if err != nil {
		t.Fatalf("Declare after reloading: %v", err)
	}
	want, _ := json.Marshal(before.Tools)
	got, _ := json.Marshal(after.Tools)
	if string(got) != string(want) {
		t.Errorf("declarations changed after reloading:\n%s\n%s", want, got)
	}
	if n := names(after.Tools); !cmp.Equal(n, []string{"notes", ToolName, "records_lookup", "records_search"}) || !after.Tools[2].Strict {
		t.Errorf("declared %v (strict lookup: %v)", n, after.Tools[2].Strict)
	}
}
