package openaichat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// TestLongNamesMapBack declares a discovered tool whose name is longer than
// OpenAI accepts and checks that calls of its wire name, and discovery
// calls naming it, map back to the conversation's name.
func TestLongNamesMapBack(t *testing.T) {
	long := "records_" + strings.Repeat("reconcile_", 9) + "ledger"
	wireName := openaiwire.LegalName(long)
	snapshot := model.ToolSnapshot{Name: long, Description: "Reconcile the ledger", Parameters: json.RawMessage(openaitest.IDParams)}
	history := append(openaitest.Start(),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "reconcile"})),
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d1", Tools: []model.ToolSnapshot{snapshot}}),
		model.UserMessage("Reconcile r1."))
	reply := completionJSON(callsMessage(
		[3]string{"c1", wireName, `{"id":"r1"}`},
		[3]string{"c2", "tool_search", fmt.Sprintf(`{"names":[%q,"billing_refund"]}`, wireName)},
	), "tool_calls")
	api := newFakeAPI(t, openaitest.Reply{Body: reply})
	c := api.client()
	resp, err := c.Complete(context.Background(), openaitest.Prepare(t, c, chatModel, history, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Part{
		model.ToolCallPart(model.ToolCall{ID: "c1", Name: long, Arguments: json.RawMessage(`{"id":"r1"}`)}),
		model.DiscoveryCallPart(model.DiscoveryCall{ID: "c2", Names: []string{long, "billing_refund"}}),
	}
	if diff := cmp.Diff(want, resp.Message.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	body := string(api.Body(0))
	if !strings.Contains(body, `"name":"`+wireName+`"`) || strings.Contains(body, `"name":"`+long+`"`) {
		t.Errorf("request does not declare %q in place of the long name:\n%s", wireName, body)
	}
	if !strings.Contains(body, "- "+wireName+": Reconcile the ledger") {
		t.Errorf("discovery result text does not list the wire name:\n%s", body)
	}
}
