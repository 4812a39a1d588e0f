package discovery

import (
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// CheckToolChoice reports why choice cannot constrain a request declaring
// tools, as a *model.ValidationError with RuleToolChoice:
//   - auto, none and required name no tool; "none" forbids every tool, the
//     discovery tool included; "required" needs a declared tool, and a
//     discovery call satisfies it;
//   - a forced tool (model.ToolChoiceTool) must be one of the
//     application's declared tools: never the discovery tool nor a
//     discovered tool.
func CheckToolChoice(choice model.ToolChoice, tools []model.ToolDefinition) error {
	switch choice.Mode {
	case model.ToolChoiceAuto, model.ToolChoiceNone, model.ToolChoiceRequired:
		if choice.Name != "" {
			return failure(-1, -1, RuleToolChoice, "tool choice %q names tool %q; only %q names one", choiceMode(choice.Mode), choice.Name, model.ToolChoiceTool)
		}
		if choice.Mode == model.ToolChoiceRequired && len(tools) == 0 {
			return failure(-1, -1, RuleToolChoice, "tool choice %q but the request declares no tools", choice.Mode)
		}
		return nil
	case model.ToolChoiceTool:
		if choice.Name == "" {
			return failure(-1, -1, RuleToolChoice, "tool choice %q names no tool", choice.Mode)
		}
		for _, t := range tools {
			if t.Name != choice.Name {
				continue
			}
			if t.Kind != model.ToolApplication {
				return failure(-1, -1, RuleToolChoice, "forced tool %q is the %s tool %q; only the application's tools can be forced", choice.Name, kindName(t.Kind), t.Name)
			}
			return nil
		}
		return failure(-1, -1, RuleToolChoice, "forced tool %q is not one of the application's tools", choice.Name)
	}
	return failure(-1, -1, RuleToolChoice, "unknown tool choice mode %q", choice.Mode)
}

// CheckChoiceHonoured reports whether an assistant message honours the tool
// choice its request made, as a *model.ValidationError with RuleToolChoice:
// under "none" it holds no tool call and no discovery call; under
// "required" it holds at least one of either; under a forced tool it calls
// that tool, and only that tool. Adapters that enforce a choice themselves
// use it to check what the provider returned.
func CheckChoiceHonoured(choice model.ToolChoice, msg model.Message) error {
	var tools, discoveries int
	for _, p := range msg.Parts {
		switch p.Kind {
		case model.PartToolCall:
			tools++
			if choice.Mode == model.ToolChoiceTool && p.ToolCall.Name != choice.Name {
				return failure(-1, -1, RuleToolChoice, "tool %q is forced but the model called %q", choice.Name, p.ToolCall.Name)
			}
		case model.PartDiscoveryCall:
			discoveries++
		}
	}
	switch choice.Mode {
	case model.ToolChoiceNone:
		if tools+discoveries > 0 {
			return failure(-1, -1, RuleToolChoice, "tool choice %q but the model made %d tool calls and %d discovery calls", choice.Mode, tools, discoveries)
		}
	case model.ToolChoiceRequired:
		if tools+discoveries == 0 {
			return failure(-1, -1, RuleToolChoice, "tool choice %q but the model made no tool call or discovery call", choice.Mode)
		}
	case model.ToolChoiceTool:
		if discoveries > 0 || tools == 0 {
			return failure(-1, -1, RuleToolChoice, "tool %q is forced but the model made %d calls of it and %d discovery calls", choice.Name, tools, discoveries)
		}
	}
	return nil
}

func choiceMode(m model.ToolChoiceMode) string {
	if m == model.ToolChoiceAuto {
		return "auto"
	}
	return string(m)
}

func kindName(k model.ToolKind) string {
	if k == model.ToolApplication {
		return "application"
	}
	return string(k)
}
