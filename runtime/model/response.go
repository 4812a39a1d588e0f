package model

import "fmt"

// FinishReason says why the model stopped.
type FinishReason string

// Finish reasons.
const (
	// FinishStop: the model finished its answer.
	FinishStop FinishReason = "stop"
	// FinishLength: the output token limit cut the answer.
	FinishLength FinishReason = "length"
	// FinishToolCalls: the message holds tool calls or discovery calls that
	// must be answered. Reported whenever any call is pending, also when a
	// step holds only discovery calls.
	FinishToolCalls FinishReason = "tool_calls"
	// FinishContentFilter: the provider's content filter stopped the answer.
	FinishContentFilter FinishReason = "content_filter"
	// FinishRefusal: the model refused to answer.
	FinishRefusal FinishReason = "refusal"
)

func (r FinishReason) known() bool {
	switch r {
	case FinishStop, FinishLength, FinishToolCalls, FinishContentFilter, FinishRefusal:
		return true
	}
	return false
}

// Usage counts the tokens of one model call.
type Usage struct {
	// InputTokens counts prompt tokens, cached ones included.
	InputTokens int `json:"input_tokens,omitempty"`
	// OutputTokens counts generated tokens.
	OutputTokens int `json:"output_tokens,omitempty"`
	// CacheReadTokens counts prompt tokens read from the provider's cache.
	CacheReadTokens int `json:"cache_read_tokens,omitempty"`
	// CacheWriteTokens counts prompt tokens written to the provider's cache.
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// ReasoningTokens counts generated reasoning tokens, when reported.
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		ReasoningTokens:  u.ReasoningTokens + v.ReasoningTokens,
	}
}

// Response is a model's answer: one assistant message whose tool calls and
// discovery calls are listed apart (ToolCalls, DiscoveryCalls).
type Response struct {
	// Message is the assistant message to append to the history.
	Message Message `json:"message"`
	// FinishReason is FinishToolCalls exactly when Message holds calls.
	FinishReason FinishReason `json:"finish_reason"`
	// ProviderReason is the provider's own stop reason, verbatim, for
	// diagnostics ("end_turn", "completed", ...).
	ProviderReason string `json:"provider_reason,omitempty"`
	// Usage counts the call's tokens.
	Usage Usage `json:"usage,omitzero"`
}

// NewResponse builds a response and applies the finish rule: when msg holds
// any tool call or discovery call the reason is FinishToolCalls, whatever
// the provider reported (adapters keep the provider's reason in
// ProviderReason). Without calls, reason must be a known reason other than
// FinishToolCalls. msg must be a valid assistant message.
func NewResponse(msg Message, reason FinishReason, usage Usage) (*Response, error) {
	if msg.HasPendingCalls() {
		reason = FinishToolCalls
	}
	r := &Response{Message: msg, FinishReason: reason, Usage: usage}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// Validate checks that the message is a valid assistant message and that
// the finish reason is FinishToolCalls exactly when calls are pending.
func (r *Response) Validate() error {
	if r.Message.Role != RoleAssistant {
		return &ValidationError{Message: -1, Part: -1, Rule: RuleRole, Detail: fmt.Sprintf("response message has role %q, want %q", r.Message.Role, RoleAssistant)}
	}
	if err := r.Message.Validate(); err != nil {
		return err
	}
	pending := r.Message.HasPendingCalls()
	switch {
	case !r.FinishReason.known():
		return &ValidationError{Message: -1, Part: -1, Rule: RuleFinishReason, Detail: fmt.Sprintf("unknown finish reason %q", r.FinishReason)}
	case pending && r.FinishReason != FinishToolCalls:
		return &ValidationError{Message: -1, Part: -1, Rule: RuleFinishReason, Detail: fmt.Sprintf("finish reason %q with pending calls, want %q", r.FinishReason, FinishToolCalls)}
	case !pending && r.FinishReason == FinishToolCalls:
		return &ValidationError{Message: -1, Part: -1, Rule: RuleFinishReason, Detail: fmt.Sprintf("finish reason %q without pending calls", r.FinishReason)}
	}
	return nil
}

// ToolCalls returns the response's tool calls in order.
func (r *Response) ToolCalls() []ToolCall { return r.Message.ToolCalls() }

// DiscoveryCalls returns the response's discovery calls in order.
func (r *Response) DiscoveryCalls() []DiscoveryCall { return r.Message.DiscoveryCalls() }
