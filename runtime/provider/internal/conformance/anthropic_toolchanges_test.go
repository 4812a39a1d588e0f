package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// TestToolChangeRules checks the rules on system-role messages and tool
// changes against requests that keep and break them.
func TestToolChangeRules(t *testing.T) {
	const tools = `"tools":[{"name":"a","input_schema":{}}]`
	const removal = `{"role":"system","content":[{"type":"tool_removal","tool":{"type":"tool_reference","name":"a"}}]}`
	withBeta := http.Header{"Anthropic-Version": {AnthropicVersion}, "Anthropic-Beta": {toolChangeBeta}}
	without := http.Header{"Anthropic-Version": {AnthropicVersion}}
	tests := []struct {
		name   string
		body   string
		header http.Header
		broken string // the rule it breaks, "" for none
	}{
		{"after a user turn, last", `{` + tools + `,"messages":[{"role":"user","content":"x"},` + removal + `]}`, withBeta, ""},
		{"after tool results, before the answer", `{` + tools + `,"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"a","input":{}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"}]},` + removal + `,{"role":"assistant","content":"y"}]}`, withBeta, ""},
		{"two in a row", `{` + tools + `,"messages":[{"role":"user","content":"x"},` + removal + `,{"role":"system","content":"z"},{"role":"assistant","content":"y"}]}`, withBeta, ""},
		{"without the beta", `{` + tools + `,"messages":[{"role":"user","content":"x"},` + removal + `]}`, without, "anthropic-beta-when-used"},
		{"beta without tool changes", `{` + tools + `,"messages":[{"role":"user","content":"x"},{"role":"system","content":"z"}]}`, withBeta, "anthropic-beta-when-used"},
		{"first", `{` + tools + `,"messages":[` + removal + `,{"role":"user","content":"x"}]}`, withBeta, "system-message-placement"},
		{"before a user turn", `{` + tools + `,"messages":[{"role":"user","content":"x"},` + removal + `,{"role":"user","content":"y"}]}`, withBeta, "system-message-placement"},
		{"undeclared tool", `{"tools":[{"name":"b","input_schema":{}}],"messages":[{"role":"user","content":"x"},` + removal + `]}`, withBeta, "tool-change-declared"},
		{"in a user turn", `{` + tools + `,"messages":[{"role":"user","content":[{"type":"tool_addition","tool":{"type":"tool_reference","name":"a"}}]}]}`, withBeta, "tool-change-declared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRequest([]byte(tt.body), tt.header)
			if err != nil {
				t.Fatal(err)
			}
			for _, rule := range Rules(Anthropic) {
				switch err := rule.Check(r); {
				case rule.ID == tt.broken && err == nil:
					t.Errorf("%s passes", rule.ID)
				case rule.ID != tt.broken && err != nil && (rule.ID == "anthropic-beta-when-used" || rule.ID == "system-message-placement" || rule.ID == "tool-change-declared"):
					t.Errorf("%s: %v", rule.ID, err)
				}
			}
		})
	}
}

// TestAnthropicToolChangeRequests sends, through the adapter on a model
// with mid-conversation tool changes, the request of a step whose
// permitted catalog lost a discovered tool and the one where it came back,
// to a loopback test double, and checks them as TestAdapterRequests does.
func TestAnthropicToolChangeRequests(t *testing.T) {
	const modelID = "claude-opus-5"
	reply := `{"id":"msg_t","type":"message","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":2}}`
	api := openaitest.New(t, "/v1/messages", openaitest.Reply{Body: reply}, openaitest.Reply{Body: reply}, openaitest.Reply{Body: reply})
	c := anthropic.New(anthropic.WithBaseURL(api.URL()), anthropic.WithAPIKey("test-key"))
	full := openaitest.Catalog(t)
	const lost = "billing_refund"
	without := full.Subset(func(i int) bool { return full.Deferred()[i].Name != lost })
	call := model.DiscoveryCall{ID: "toolu_d1", Names: []string{lost}}
	res, err := full.Answer(call, 0)
	if err != nil {
		t.Fatal(err)
	}
	history := append(openaitest.Start(), model.AssistantMessage(model.DiscoveryCallPart(call)), model.DiscoveryMessage(res))
	for i, catalog := range []*discovery.Catalog{full, without, full} {
		resp, err := c.Complete(context.Background(), openaitest.Prepare(t, c, modelID, history, catalog))
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		answer := model.AssistantMessage(model.TextPart("ok"))
		answer.Meta = resp.Message.Meta
		history = append(history, answer, model.UserMessage("And now?"))
		body, header := api.Body(i), api.Header(i)
		if err := Strict(body, newParams(Anthropic)); err != nil {
			t.Errorf("step %d: strict decode: %v", i+1, err)
		}
		r, err := NewRequest(body, header)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !usesToolChanges(r) {
			t.Errorf("step %d carries no tool change: %s", i+1, body)
		}
		for _, v := range Violations(Anthropic, r) {
			t.Errorf("step %d: %s", i+1, v)
		}
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(history[len(history)-2].Meta[anthropic.MetaToolChanges], &rec); err != nil || rec["added"] == nil {
		t.Errorf("the last answer records %s, want the addition", history[len(history)-2].Meta[anthropic.MetaToolChanges])
	}
}
