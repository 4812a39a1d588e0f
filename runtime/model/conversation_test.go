package model

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

// conversation is a history holding every role, every part kind, provider
// records on messages and parts, and malformed arguments.
func conversation() []Message {
	lookup := ToolSnapshot{
		Name:        "records_lookup",
		Description: "Look up a record by id",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
		Strict:      ptr(true),
		Namespace:   "records",
	}
	search := ToolSnapshot{
		Name:        "records_search",
		Description: "Search records",
		Parameters:  json.RawMessage(`{"type":"object"}`),
	}
	return []Message{
		SystemMessage("You help with records."),
		UserMessage("Find record r1, then search for late ones."),
		{
			Role: RoleAssistant,
			Parts: []Part{
				TextPart("Let me find the tools."),
				{
					Kind:          PartDiscoveryCall,
					DiscoveryCall: &DiscoveryCall{ID: "d1", Names: []string{"records_lookup"}, Query: "search records"},
					Meta:          map[string]json.RawMessage{"anthropic": json.RawMessage(`{"type":"server_tool_use","id":"srvtoolu_1"}`)},
				},
				DiscoveryCallPart(DiscoveryCall{ID: "d2", Query: "delete everything"}),
			},
			Meta: map[string]json.RawMessage{"openai": json.RawMessage(`[{"type":"tool_search_call","id":"ts_1","arguments":{"query":"search records"}}]`)},
		},
		DiscoveryMessage(
			DiscoveryResult{CallID: "d1", Tools: []ToolSnapshot{lookup, search}},
			DiscoveryResult{CallID: "d2", Note: "no permitted tool matches"},
		),
		AssistantMessage(
			ToolCallPart(ToolCall{ID: "c1", Name: "records_lookup", Arguments: json.RawMessage(`{"id":"r1"}`)}),
			ToolCallPart(ToolCall{ID: "c2", Name: "records_search", MalformedArguments: `{"q": "late"`}),
		),
		ToolMessage(
			ToolResult{CallID: "c1", Name: "records_lookup", Content: `{"id":"r1","status":"late"}`},
			ToolResult{CallID: "c2", Name: "records_search", Content: "arguments are not valid JSON", IsError: true},
		),
		{Role: RoleDiscovery, Parts: []Part{DiscoveryResultPart(DiscoveryResult{CallID: "d3"})}},
		AssistantMessage(TextPart("Record r1 is late.")),
		{Role: RoleUser, Parts: []Part{}},
	}
}

func TestConversationJSONRoundTrip(t *testing.T) {
	want := conversation()
	if err := ValidateMessages(want[:len(want)-1]); err != nil {
		t.Fatalf("fixture is not valid: %v", err)
	}
	raw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got []Message
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("round trip changed the history (-want +got):\n%s", diff)
	}
	again, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, again) {
		t.Fatalf("re-encoding changed the bytes:\n%s\n%s", raw, again)
	}
}

func TestRequestResponseJSONRoundTrip(t *testing.T) {
	req := Request{
		Model:    "claude-sonnet-4-5",
		Messages: conversation(),
		Tools: []ToolDefinition{
			{Name: "records_get", Description: "Get", Parameters: json.RawMessage(`{"type":"object"}`), Strict: true},
			{Name: "find_tools", Description: "Discover tools", Parameters: json.RawMessage(`{"type":"object"}`), Kind: ToolDiscovery},
			conversation()[3].Parts[0].DiscoveryResult.Tools[0].Definition(),
		},
		Discovery:       Discovery{Enabled: true, Description: "Records tools.", Deferred: []ToolDefinition{{Name: "records_search", Parameters: json.RawMessage(`{"type":"object"}`)}}},
		ToolChoice:      ToolChoice{Mode: ToolChoiceTool, Name: "records_get"},
		MaxOutputTokens: 1024,
		Temperature:     ptr(0.2),
		ResponseFormat:  &ResponseFormat{Name: "answer", Schema: json.RawMessage(`{"type":"object"}`), Strict: true},
	}
	resp, err := NewResponse(AssistantMessage(DiscoveryCallPart(DiscoveryCall{ID: "d9", Query: "x"})), FinishStop, Usage{InputTokens: 10, OutputTokens: 2, CacheReadTokens: 8})
	if err != nil {
		t.Fatal(err)
	}
	resp.ProviderReason = "end_turn"
	for _, v := range []any{&req, resp} {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := newOfSameType(v)
		if err := json.Unmarshal(raw, got); err != nil {
			t.Fatalf("decode %T: %v", v, err)
		}
		if diff := cmp.Diff(v, got); diff != "" {
			t.Fatalf("%T round trip (-want +got):\n%s", v, diff)
		}
	}
}

func newOfSameType(v any) any {
	switch v.(type) {
	case *Request:
		return new(Request)
	case *Response:
		return new(Response)
	}
	panic("unexpected type")
}

func TestSnapshotDefinition(t *testing.T) {
	s := ToolSnapshot{Name: "a", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`), Namespace: "ns"}
	want := ToolDefinition{Name: "a", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`), Kind: ToolDiscovered, Namespace: "ns"}
	if diff := cmp.Diff(want, s.Definition()); diff != "" {
		t.Fatalf("Definition (-want +got):\n%s", diff)
	}
	s.Strict = ptr(false)
	if s.Definition().Strict {
		t.Fatal("strict=false snapshot declared strict")
	}
	s.Strict = ptr(true)
	if !s.Definition().Strict {
		t.Fatal("strict=true snapshot declared non-strict")
	}
}
