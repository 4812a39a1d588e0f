package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// TestLongNamesMapBack discovers a tool whose name is longer than OpenAI
// accepts, and checks that the request declares a legal name and that the
// model's call of it maps back to the conversation's name.
func TestLongNamesMapBack(t *testing.T) {
	long := "records_" + strings.Repeat("reconcile_", 9) + "ledger" // 104 bytes
	snapshot := model.ToolSnapshot{Name: long, Description: "Reconcile the ledger", Parameters: json.RawMessage(idParams), Namespace: "records"}
	history := append(start(),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{long}})),
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d1", Tools: []model.ToolSnapshot{snapshot}}),
		model.UserMessage("Reconcile r1."))
	short := strings.TrimPrefix(long, "records_")
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			wireName := openaiwire.LegalName(long)
			item := fmt.Sprintf(`{"type":"function_call","call_id":"c1","name":%q,"arguments":"{\"id\":\"r1\"}"}`, wireName)
			if rc.native {
				wireName = openaiwire.LegalName(short)
				item = fmt.Sprintf(`{"type":"function_call","call_id":"c1","namespace":"records","name":%q,"arguments":"{\"id\":\"r1\"}"}`, wireName)
			}
			if len(wireName) > openaiwire.MaxNameLength {
				t.Fatalf("wire name %q is too long", wireName)
			}
			api := newFakeAPI(t, reply{Body: responseJSON(rc.model, item)})
			c := api.client(rc.opts...)
			resp, err := c.Complete(context.Background(), prepare(t, c, rc.model, history, nil))
			if err != nil {
				t.Fatal(err)
			}
			if calls := resp.ToolCalls(); len(calls) != 1 || calls[0].Name != long {
				t.Fatalf("calls = %+v, want one call of %q", calls, long)
			}
			body := string(api.body(0))
			if !strings.Contains(body, `"name":"`+wireName+`"`) || strings.Contains(body, `"name":"`+long+`"`) {
				t.Errorf("request does not declare %q in place of the long name:\n%s", wireName, body)
			}
		})
	}
}

// TestToolChoice checks how each tool choice reaches the wire.
func TestToolChoice(t *testing.T) {
	cases := []struct {
		choice model.ToolChoice
		want   string
	}{
		{model.ToolChoice{}, ``},
		{model.ToolChoice{Mode: model.ToolChoiceNone}, `"none"`},
		{model.ToolChoice{Mode: model.ToolChoiceRequired}, `"required"`},
		{model.ToolChoice{Mode: model.ToolChoiceTool, Name: "get_time"}, `{"name":"get_time","type":"function"}`},
	}
	c := New()
	for _, tc := range cases {
		req := prepare(t, c, nativeModel, start(), nil)
		req.ToolChoice = tc.choice
		var body struct {
			ToolChoice json.RawMessage `json:"tool_choice"`
		}
		if err := json.Unmarshal(renderBody(t, c, req), &body); err != nil {
			t.Fatal(err)
		}
		if string(body.ToolChoice) != tc.want {
			t.Errorf("tool choice %+v renders %s, want %s", tc.choice, body.ToolChoice, tc.want)
		}
	}
}

// TestNamespaceDescriptions checks that loaded namespaces carry the
// application's toolset descriptions.
func TestNamespaceDescriptions(t *testing.T) {
	history := append(start(),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"records_lookup", "billing_refund"}})))
	r, err := testCatalog(t).Answer(history[len(history)-1].DiscoveryCalls()[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	history = append(history, model.DiscoveryMessage(r), model.UserMessage("go on"))
	c := New(WithNamespaceDescriptions(map[string]string{"records": "Customer records: lookup, search and analysis."}))
	body := string(renderBody(t, c, prepare(t, c, nativeModel, history, testCatalog(t))))
	for _, want := range []string{
		`"description":"Customer records: lookup, search and analysis.","name":"records"`,
		`"description":"Tools of the billing toolset.","name":"billing"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %s:\n%s", want, body)
		}
	}
}
