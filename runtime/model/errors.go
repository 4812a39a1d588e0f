package model

import (
	"errors"
	"fmt"
	"net/http"
)

// ErrToolSearchUnsupported is returned by a Client asked to render discovery
// for a model that supports neither native nor emulated tool search. There
// is no silent fallback to declaring every tool.
var ErrToolSearchUnsupported = errors.New("model: tool search is not supported for this model")

// ErrInvalidRequest is matched by every *ValidationError.
var ErrInvalidRequest = errors.New("model: invalid request")

// Rule names a validation rule. Package model defines the rules of one
// message's structure; other packages (discovery, adapters) define their
// own Rule constants.
type Rule string

// Rules checked by Message.Validate and Response.Validate.
const (
	// RuleRole: a message has one of the five roles.
	RuleRole Rule = "role"
	// RulePartKind: a part's kind is known and allowed in its message's role.
	RulePartKind Rule = "part_kind"
	// RuleCallID: every call and result carries a call id.
	RuleCallID Rule = "call_id"
	// RuleDuplicateCallID: two calls of one message never share an id.
	RuleDuplicateCallID Rule = "duplicate_call_id"
	// RuleToolName: a tool call and a tool result name their tool.
	RuleToolName Rule = "tool_name"
	// RuleArguments: a tool call carries either JSON arguments or the
	// malformed text the model produced, never both or neither.
	RuleArguments Rule = "arguments"
	// RuleDiscoveryCall: a discovery call has non-empty names, a query, or
	// both.
	RuleDiscoveryCall Rule = "discovery_call"
	// RuleNoteWithTools: a discovery result carries tools or a note, never
	// both.
	RuleNoteWithTools Rule = "note_with_tools"
	// RuleDuplicateSnapshot: a discovery result lists a name once.
	RuleDuplicateSnapshot Rule = "duplicate_snapshot"
	// RuleFinishReason: a response's finish reason is tool_calls exactly
	// when it has pending calls.
	RuleFinishReason Rule = "finish_reason"
)

// ValidationError reports a broken rule, naming the message and part.
type ValidationError struct {
	// Message is the index of the offending message in its history, or -1
	// when the error is not about one message.
	Message int
	// Part is the index of the offending part in its message, or -1.
	Part int
	// Rule is the broken rule.
	Rule Rule
	// Detail explains the failure.
	Detail string
}

// Error formats the error as "message M part P: rule: detail".
func (e *ValidationError) Error() string {
	loc := ""
	if e.Message >= 0 {
		loc = fmt.Sprintf("message %d", e.Message)
	}
	if e.Part >= 0 {
		if loc != "" {
			loc += " "
		}
		loc += fmt.Sprintf("part %d", e.Part)
	}
	if loc != "" {
		loc += ": "
	}
	return fmt.Sprintf("model: %s%s: %s", loc, e.Rule, e.Detail)
}

// Is makes every *ValidationError match ErrInvalidRequest.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidRequest }

// ProviderError is an error reported by a model provider's API.
type ProviderError struct {
	// Provider names the provider ("anthropic", "openai").
	Provider string
	// StatusCode is the HTTP status code, or 0 when there was no response.
	StatusCode int
	// Type is the provider's error type ("rate_limit_error", ...).
	Type string
	// Message is the provider's error message, verbatim.
	Message string
	// RequestID is the provider's request id, when it sent one.
	RequestID string
	// Err is the underlying error from the provider's SDK, if any.
	Err error
}

// Error formats the error with the provider, status, type and message.
func (e *ProviderError) Error() string {
	s := e.Provider
	if e.StatusCode != 0 {
		s += fmt.Sprintf(" %d", e.StatusCode)
	}
	if e.Type != "" {
		s += " " + e.Type
	}
	return s + ": " + e.Message
}

// Unwrap returns the underlying SDK error.
func (e *ProviderError) Unwrap() error { return e.Err }

// Temporary reports whether retrying the same request later may succeed:
// rate limits, timeouts, overload and server errors.
func (e *ProviderError) Temporary() bool {
	switch {
	case e.StatusCode == http.StatusTooManyRequests, e.StatusCode == http.StatusRequestTimeout:
		return true
	case e.StatusCode >= 500:
		return true
	}
	return false
}
