package discovery

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestCheckToolChoice(t *testing.T) {
	declared := []model.ToolDefinition{appTool("search"), Tool(""), snap("found").Definition()}
	cases := []struct {
		name   string
		choice model.ToolChoice
		tools  []model.ToolDefinition
		ok     bool
	}{
		{"auto", model.ToolChoice{}, declared, true},
		{"auto without tools", model.ToolChoice{}, nil, true},
		{"none", model.ToolChoice{Mode: model.ToolChoiceNone}, declared, true},
		{"required", model.ToolChoice{Mode: model.ToolChoiceRequired}, declared, true},
		{"required with only the discovery tool", model.ToolChoice{Mode: model.ToolChoiceRequired}, []model.ToolDefinition{Tool("")}, true},
		{"required without tools", model.ToolChoice{Mode: model.ToolChoiceRequired}, nil, false},
		{"forced application tool", model.ToolChoice{Mode: model.ToolChoiceTool, Name: "search"}, declared, true},
		{"forced discovery tool", model.ToolChoice{Mode: model.ToolChoiceTool, Name: ToolName}, declared, false},
		{"forced discovered tool", model.ToolChoice{Mode: model.ToolChoiceTool, Name: "found"}, declared, false},
		{"forced unknown tool", model.ToolChoice{Mode: model.ToolChoiceTool, Name: "other"}, declared, false},
		{"forced without name", model.ToolChoice{Mode: model.ToolChoiceTool}, declared, false},
		{"name without forcing", model.ToolChoice{Mode: model.ToolChoiceNone, Name: "search"}, declared, false},
		{"unknown mode", model.ToolChoice{Mode: "any"}, declared, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckToolChoice(tc.choice, tc.tools)
			if tc.ok {
				wantRule(t, err, "", 0, 0)
			} else {
				wantRule(t, err, RuleToolChoice, -1, -1)
			}
		})
	}
}

func TestCheckChoiceHonoured(t *testing.T) {
	text := model.AssistantMessage(model.TextPart("hello"))
	discover := model.AssistantMessage(discoveryCall("d1", "a"))
	call := model.AssistantMessage(toolCall("c1", "search"))
	other := model.AssistantMessage(toolCall("c1", "search"), toolCall("c2", "other"))
	both := model.AssistantMessage(toolCall("c1", "search"), discoveryCall("d1", "a"))
	none := model.ToolChoice{Mode: model.ToolChoiceNone}
	required := model.ToolChoice{Mode: model.ToolChoiceRequired}
	forced := model.ToolChoice{Mode: model.ToolChoiceTool, Name: "search"}
	cases := []struct {
		name   string
		choice model.ToolChoice
		msg    model.Message
		ok     bool
	}{
		{"auto text", model.ToolChoice{}, text, true},
		{"auto calls", model.ToolChoice{}, both, true},
		{"none text", none, text, true},
		{"none forbids discovery", none, discover, false},
		{"none forbids tools", none, call, false},
		{"required by a discovery call", required, discover, true},
		{"required by a tool call", required, call, true},
		{"required unmet", required, text, false},
		{"forced called", forced, call, true},
		{"forced not called", forced, text, false},
		{"forced and another tool", forced, other, false},
		{"forced and a discovery call", forced, both, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckChoiceHonoured(tc.choice, tc.msg)
			if tc.ok {
				wantRule(t, err, "", 0, 0)
			} else {
				wantRule(t, err, RuleToolChoice, -1, -1)
			}
		})
	}
}
