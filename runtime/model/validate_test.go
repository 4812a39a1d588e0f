package model

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestMessageValidate(t *testing.T) {
	args := json.RawMessage(`{}`)
	cases := []struct {
		name string
		msg  Message
		rule Rule
		part int
	}{
		{"valid assistant", AssistantMessage(TextPart("a"), ToolCallPart(ToolCall{ID: "c", Name: "t", Arguments: args}), DiscoveryCallPart(DiscoveryCall{ID: "d", Query: "q"})), "", -1},
		{"valid malformed arguments", AssistantMessage(ToolCallPart(ToolCall{ID: "c", Name: "t", MalformedArguments: "{"})), "", -1},
		{"unknown role", Message{Role: "developer"}, RuleRole, -1},
		{"hosted call with no names or query yet", AssistantMessage(DiscoveryCallPart(DiscoveryCall{ID: "h", Hosted: true})), "", -1},
		{"discovery call with no names or query", AssistantMessage(DiscoveryCallPart(DiscoveryCall{ID: "d"})), RuleDiscoveryCall, 0},
		{"reasoning in an assistant message", AssistantMessage(ReasoningPart(Reasoning{}, "p", []byte(`{}`)), TextPart("a")), "", -1},
		{"reasoning in a user message", Message{Role: RoleUser, Parts: []Part{ReasoningPart(Reasoning{}, "p", []byte(`{}`))}}, RulePartKind, 0},
		{"tool call in user message", Message{Role: RoleUser, Parts: []Part{ToolCallPart(ToolCall{ID: "c", Name: "t", Arguments: args})}}, RulePartKind, 0},
		{"text in tool message", Message{Role: RoleTool, Parts: []Part{TextPart("x")}}, RulePartKind, 0},
		{"tool result in discovery message", Message{Role: RoleDiscovery, Parts: []Part{ToolResultPart(ToolResult{CallID: "c", Name: "t"})}}, RulePartKind, 0},
		{"discovery result in tool message", Message{Role: RoleTool, Parts: []Part{DiscoveryResultPart(DiscoveryResult{CallID: "d"})}}, RulePartKind, 0},
		{"inconsistent part", AssistantMessage(Part{Kind: PartToolCall}), RulePartKind, 0},
		{"tool call without id", AssistantMessage(ToolCallPart(ToolCall{Name: "t", Arguments: args})), RuleCallID, 0},
		{"discovery call without id", AssistantMessage(DiscoveryCallPart(DiscoveryCall{Query: "q"})), RuleCallID, 0},
		{"tool call without name", AssistantMessage(ToolCallPart(ToolCall{ID: "c", Arguments: args})), RuleToolName, 0},
		{"no arguments", AssistantMessage(ToolCallPart(ToolCall{ID: "c", Name: "t"})), RuleArguments, 0},
		{"both arguments", AssistantMessage(ToolCallPart(ToolCall{ID: "c", Name: "t", Arguments: args, MalformedArguments: "{"})), RuleArguments, 0},
		{"invalid arguments", AssistantMessage(ToolCallPart(ToolCall{ID: "c", Name: "t", Arguments: json.RawMessage(`{"a":`)})), RuleArguments, 0},
		{"empty discovery call", AssistantMessage(TextPart("x"), DiscoveryCallPart(DiscoveryCall{ID: "d"})), RuleDiscoveryCall, 1},
		{"empty discovery name", AssistantMessage(DiscoveryCallPart(DiscoveryCall{ID: "d", Names: []string{"a", ""}})), RuleDiscoveryCall, 0},
		{"duplicate call id", AssistantMessage(ToolCallPart(ToolCall{ID: "x", Name: "t", Arguments: args}), DiscoveryCallPart(DiscoveryCall{ID: "x", Query: "q"})), RuleDuplicateCallID, 1},
		{"tool result without call id", ToolMessage(ToolResult{Name: "t"}), RuleCallID, 0},
		{"tool result without name", ToolMessage(ToolResult{CallID: "c"}), RuleToolName, 0},
		{"discovery result without call id", DiscoveryMessage(DiscoveryResult{}), RuleCallID, 0},
		{"note with tools", DiscoveryMessage(DiscoveryResult{CallID: "d", Note: "n", Tools: []ToolSnapshot{{Name: "a"}}}), RuleNoteWithTools, 0},
		{"name listed twice", DiscoveryMessage(DiscoveryResult{CallID: "d"}, DiscoveryResult{CallID: "e", Tools: []ToolSnapshot{{Name: "a"}, {Name: "b"}, {Name: "a"}}}), RuleDuplicateSnapshot, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateMessages([]Message{UserMessage("hi"), tc.msg})
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("ValidateMessages: %v", err)
				}
				return
			}
			var verr *ValidationError
			if !errors.As(err, &verr) || !errors.Is(err, ErrInvalidRequest) {
				t.Fatalf("error = %v, want a *ValidationError", err)
			}
			if verr.Rule != tc.rule || verr.Message != 1 || verr.Part != tc.part {
				t.Fatalf("error = %v (rule %s, message %d, part %d), want rule %s, message 1, part %d", err, verr.Rule, verr.Message, verr.Part, tc.rule, tc.part)
			}
			if err := tc.msg.Validate(); err == nil || err.(*ValidationError).Message != -1 {
				t.Fatalf("Message.Validate = %v, want the same rule without a message index", err)
			}
		})
	}
}

func TestValidationErrorText(t *testing.T) {
	cases := []struct {
		err  ValidationError
		want string
	}{
		{ValidationError{Message: 3, Part: 1, Rule: RuleNoteWithTools, Detail: "d"}, "model: message 3 part 1: note_with_tools: d"},
		{ValidationError{Message: 3, Part: -1, Rule: RuleRole, Detail: "d"}, "model: message 3: role: d"},
		{ValidationError{Message: -1, Part: -1, Rule: RuleFinishReason, Detail: "d"}, "model: finish_reason: d"},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
