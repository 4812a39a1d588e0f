package model_test

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// A step that only discovers tools still finishes with tool_calls, and its
// discovery call is listed apart from tool calls.
func ExampleNewResponse() {
	msg := model.AssistantMessage(
		model.TextPart("Looking for a tool."),
		model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "look up records"}),
	)
	resp, err := model.NewResponse(msg, model.FinishStop, model.Usage{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.FinishReason, len(resp.ToolCalls()), resp.DiscoveryCalls()[0].Query)
	// Output: tool_calls 0 look up records
}

// A discovery result answers one call with snapshots, and the history
// round-trips through JSON.
func ExampleDiscoveryMessage() {
	history := []model.Message{
		model.UserMessage("Find record r1."),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"records_lookup"}})),
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d1", Tools: []model.ToolSnapshot{{
			Name:        "records_lookup",
			Description: "Look up a record by id",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`),
		}}}),
	}
	raw, _ := json.Marshal(history[2])
	fmt.Println(string(raw))
	// Output: {"role":"discovery","parts":[{"kind":"discovery_result","discovery_result":{"call_id":"d1","tools":[{"name":"records_lookup","description":"Look up a record by id","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}]}}]}
}
