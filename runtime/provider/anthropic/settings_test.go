package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestTemperatureRejected checks that a request with a temperature fails
// before anything is sent: the API version the SDK sends has no sampling
// parameters.
func TestTemperatureRejected(t *testing.T) {
	api := newFakeAPI(t)
	c := api.client()
	temp := 0.25
	req := &model.Request{Model: nativeModel, Messages: opening(), Tools: []model.ToolDefinition{lookupTool}, MaxOutputTokens: 256, Temperature: &temp}
	_, err := c.Complete(context.Background(), req)
	var verr *model.ValidationError
	if !errors.As(err, &verr) || verr.Rule != RuleSampling {
		t.Fatalf("error %v, want rule %s", err, RuleSampling)
	}
	if n := api.requests(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// TestGoldenSettings checks how generation settings render: structured
// output and each tool choice.
func TestGoldenSettings(t *testing.T) {
	tests := []struct {
		name string
		edit func(*model.Request)
	}{
		{"format", func(r *model.Request) {
			r.ResponseFormat = &model.ResponseFormat{Name: "answer", Schema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)}
		}},
		{"choice_none", func(r *model.Request) { r.ToolChoice = model.ToolChoice{Mode: model.ToolChoiceNone} }},
		{"choice_required", func(r *model.Request) { r.ToolChoice = model.ToolChoice{Mode: model.ToolChoiceRequired} }},
		{"choice_tool", func(r *model.Request) {
			r.ToolChoice = model.ToolChoice{Mode: model.ToolChoiceTool, Name: "records.lookup"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, textReply("ok"))
			c := api.client()
			req := &model.Request{Model: nativeModel, Messages: opening(), Tools: []model.ToolDefinition{lookupTool}, MaxOutputTokens: 256}
			tt.edit(req)
			if _, err := c.Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "settings_"+tt.name, api.body(0))
		})
	}
}

// TestGoldenDiscoveryOff renders a native request after discovery was
// turned off: the discovered tools stay declared, as ordinary tools (no
// search tool is declared to load deferred ones), and the earlier
// discovery result lists them as text.
func TestGoldenDiscoveryOff(t *testing.T) {
	api := newFakeAPI(t, textReply("ok"))
	c := api.client()
	req := request(t, c, nativeModel, steps(t)[2])
	req.Tools = []model.ToolDefinition{lookupTool}
	req.Discovery = model.Discovery{}
	if _, err := discovery.Prepare(req, c.Capabilities(nativeModel), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "native_discovery_off", api.body(0))
}
