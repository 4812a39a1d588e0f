package openai

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// renderings are the ways this adapter renders discovery.
var renderings = []struct {
	name   string
	model  string
	opts   []Option
	native bool
}{
	{"native", nativeModel, nil, true},
	{"emulated", emulatedModel, nil, false},
	{"forced_emulation", nativeModel, []Option{WithEmulation()}, false},
}

// TestDiscoverCallAnswer runs the whole loop on each rendering, compares
// every request body with testdata/ (the first request with the search
// tool, the discovery result, the call of a discovered tool) and checks the
// neutral history the responses decode to.
func TestDiscoverCallAnswer(t *testing.T) {
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			replies := loopReplies(rc.native)
			if rc.name == "forced_emulation" {
				for i := range replies {
					replies[i].Body = replaceModel(replies[i].Body, nativeModel)
				}
			}
			api := newFakeAPI(t, replies...)
			c := api.client(rc.opts...)
			history := runLoop(t, c, rc.model, testCatalog(t), start())
			for i := range 3 {
				checkGolden(t, fmt.Sprintf("%s_step%d", rc.name, i+1), api.body(i))
			}
			want := wantHistory(rc.native)
			if diff := cmp.Diff(want, stripMeta(history)); diff != "" {
				t.Fatalf("history (-want +got):\n%s", diff)
			}
			for i, m := range history {
				_, has := m.Meta[MetaKey]
				if want := rc.native && m.Role == model.RoleAssistant; has != want {
					t.Errorf("message %d (%s): has %s meta = %v, want %v", i, m.Role, MetaKey, has, want)
				}
			}
		})
	}
}

func replaceModel(body, modelID string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		panic(err)
	}
	m["model"], _ = json.Marshal(modelID)
	b, _ := json.Marshal(m)
	return string(b)
}

// wantHistory is the neutral history of the loop, the same on every
// rendering.
func wantHistory(native bool) []model.Message {
	call := model.DiscoveryCall{ID: "call_s1", Query: "look up a record"}
	_ = native
	return []model.Message{
		model.SystemMessage("You help with customer records."),
		model.UserMessage("Is record r1 late?"),
		{Role: model.RoleAssistant, Parts: []model.Part{model.DiscoveryCallPart(call)}},
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "call_s1", Tools: []model.ToolSnapshot{
			{Name: "records_lookup", Description: "Look up a customer record by id", Parameters: json.RawMessage(idParams), Namespace: "records"},
			{Name: "records_search", Description: "Search customer records by keywords", Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`), Namespace: "records"},
		}}),
		{Role: model.RoleAssistant, Parts: []model.Part{model.ToolCallPart(model.ToolCall{ID: "call_f1", Name: "records_lookup", Arguments: json.RawMessage(`{"id":"r1"}`)})}},
		model.ToolMessage(model.ToolResult{CallID: "call_f1", Name: "records_lookup", Content: `{"id":"r1","status":"late"}`}),
		{Role: model.RoleAssistant, Parts: []model.Part{model.TextPart("Record r1 is late.")}},
	}
}

// stripMeta returns a copy of msgs without provider records.
func stripMeta(msgs []model.Message) []model.Message {
	out := make([]model.Message, len(msgs))
	for i, m := range msgs {
		m.Meta = nil
		out[i] = m
	}
	return out
}
