package model

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestNewResponseFinishRule(t *testing.T) {
	call := ToolCallPart(ToolCall{ID: "c", Name: "t", Arguments: json.RawMessage(`{}`)})
	discovery := DiscoveryCallPart(DiscoveryCall{ID: "d", Query: "q"})
	hosted := DiscoveryCallPart(DiscoveryCall{ID: "h", Names: []string{"t"}, Hosted: true})
	cases := []struct {
		name   string
		msg    Message
		reason FinishReason
		want   FinishReason
		rule   Rule
	}{
		{"text stops", AssistantMessage(TextPart("done")), FinishStop, FinishStop, ""},
		{"length kept", AssistantMessage(TextPart("cut")), FinishLength, FinishLength, ""},
		{"tool call", AssistantMessage(call), FinishToolCalls, FinishToolCalls, ""},
		{"tool call reported as stop", AssistantMessage(TextPart("x"), call), FinishStop, FinishToolCalls, ""},
		{"only discovery calls", AssistantMessage(discovery), FinishStop, FinishToolCalls, ""},
		{"discovery call cut by length", AssistantMessage(discovery), FinishLength, FinishToolCalls, ""},
		{"hosted search answered in the same message", AssistantMessage(hosted, TextPart("done")), FinishStop, FinishStop, ""},
		{"hosted search next to a tool call", AssistantMessage(hosted, call), FinishStop, FinishToolCalls, ""},
		{"reasoning only", AssistantMessage(ReasoningPart(Reasoning{Text: "t"}, "p", []byte(`{}`))), FinishLength, FinishLength, ""},
		{"tool_calls without calls", AssistantMessage(TextPart("x")), FinishToolCalls, "", RuleFinishReason},
		{"unknown reason", AssistantMessage(TextPart("x")), "end_turn", "", RuleFinishReason},
		{"empty reason", AssistantMessage(TextPart("x")), "", "", RuleFinishReason},
		{"not assistant", UserMessage("x"), FinishStop, "", RuleRole},
		{"invalid call", AssistantMessage(ToolCallPart(ToolCall{ID: "c"})), FinishToolCalls, "", RuleToolName},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := NewResponse(tc.msg, tc.reason, Usage{})
			if tc.rule != "" {
				var verr *ValidationError
				if !errors.As(err, &verr) || verr.Rule != tc.rule {
					t.Fatalf("NewResponse error = %v, want rule %s", err, tc.rule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.FinishReason != tc.want {
				t.Fatalf("FinishReason = %s, want %s", resp.FinishReason, tc.want)
			}
		})
	}
}

func TestResponseListsCallsApart(t *testing.T) {
	resp, err := NewResponse(AssistantMessage(
		DiscoveryCallPart(DiscoveryCall{ID: "d1", Names: []string{"a"}}),
		ToolCallPart(ToolCall{ID: "c1", Name: "t", Arguments: json.RawMessage(`{}`)}),
		DiscoveryCallPart(DiscoveryCall{ID: "d2", Query: "q"}),
	), FinishToolCalls, Usage{})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.ToolCalls(); len(got) != 1 || got[0].ID != "c1" {
		t.Fatalf("ToolCalls = %+v, want only c1", got)
	}
	if got := resp.DiscoveryCalls(); len(got) != 2 || got[0].ID != "d1" || got[1].ID != "d2" {
		t.Fatalf("DiscoveryCalls = %+v, want d1, d2", got)
	}
}

func TestUsageAdd(t *testing.T) {
	got := Usage{1, 2, 3, 4, 5}.Add(Usage{10, 20, 30, 40, 50})
	if want := (Usage{11, 22, 33, 44, 55}); got != want {
		t.Fatalf("Add = %+v, want %+v", got, want)
	}
}

func TestProviderError(t *testing.T) {
	cause := errors.New("sdk error")
	cases := []struct {
		err       ProviderError
		text      string
		temporary bool
	}{
		{ProviderError{Provider: "anthropic", StatusCode: 529, Type: "overloaded_error", Message: "Overloaded", Err: cause}, "anthropic 529 overloaded_error: Overloaded", true},
		{ProviderError{Provider: "openai", StatusCode: 429, Type: "rate_limit_exceeded", Message: "slow down"}, "openai 429 rate_limit_exceeded: slow down", true},
		{ProviderError{Provider: "openai", StatusCode: 400, Type: "invalid_request_error", Message: "bad"}, "openai 400 invalid_request_error: bad", false},
		{ProviderError{Provider: "openai", Message: "connection refused"}, "openai: connection refused", false},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("Error() = %q, want %q", got, tc.text)
		}
		if got := tc.err.Temporary(); got != tc.temporary {
			t.Errorf("%s: Temporary() = %v, want %v", tc.text, got, tc.temporary)
		}
	}
	var err error = &cases[0].err
	if !errors.Is(err, cause) {
		t.Error("ProviderError does not unwrap to its cause")
	}
}

func TestDiscoveryModeString(t *testing.T) {
	for m, want := range map[DiscoveryMode]string{DiscoveryUnsupported: "unsupported", DiscoveryEmulated: "emulated", DiscoveryNative: "native", 7: "DiscoveryMode(7)"} {
		if got := m.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}
