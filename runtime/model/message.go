package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Role says who speaks a message.
type Role string

// Roles.
const (
	// RoleSystem carries instructions: text parts.
	RoleSystem Role = "system"
	// RoleUser carries the user's text.
	RoleUser Role = "user"
	// RoleAssistant carries the model's text, tool calls and discovery calls.
	RoleAssistant Role = "assistant"
	// RoleTool carries tool results.
	RoleTool Role = "tool"
	// RoleDiscovery carries discovery results.
	RoleDiscovery Role = "discovery"
)

// allows reports whether a part of kind k may appear in a message of role r.
func (r Role) allows(k PartKind) bool {
	switch r {
	case RoleSystem, RoleUser:
		return k == PartText
	case RoleAssistant:
		return k == PartText || k == PartToolCall || k == PartDiscoveryCall || k == PartReasoning
	case RoleTool:
		return k == PartToolResult
	case RoleDiscovery:
		return k == PartDiscoveryResult
	}
	return false
}

func (r Role) known() bool {
	switch r {
	case RoleSystem, RoleUser, RoleAssistant, RoleTool, RoleDiscovery:
		return true
	}
	return false
}

// Message is one turn of the conversation.
type Message struct {
	// Role says who speaks.
	Role Role `json:"role"`
	// Parts are the message's content, in order.
	Parts []Part `json:"parts"`
	// Meta keeps provider records for the whole message verbatim, keyed by
	// provider (for example native tool-search items), so a conversation
	// continued on the same provider sends them back unchanged.
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// SystemMessage returns a system message with one text part.
func SystemMessage(text string) Message {
	return Message{Role: RoleSystem, Parts: []Part{TextPart(text)}}
}

// UserMessage returns a user message with one text part.
func UserMessage(text string) Message {
	return Message{Role: RoleUser, Parts: []Part{TextPart(text)}}
}

// AssistantMessage returns an assistant message with the given parts.
func AssistantMessage(parts ...Part) Message {
	return Message{Role: RoleAssistant, Parts: parts}
}

// ToolMessage returns a tool message answering tool calls.
func ToolMessage(results ...ToolResult) Message {
	parts := make([]Part, len(results))
	for i, r := range results {
		parts[i] = ToolResultPart(r)
	}
	return Message{Role: RoleTool, Parts: parts}
}

// DiscoveryMessage returns a discovery message answering discovery calls.
func DiscoveryMessage(results ...DiscoveryResult) Message {
	parts := make([]Part, len(results))
	for i, r := range results {
		parts[i] = DiscoveryResultPart(r)
	}
	return Message{Role: RoleDiscovery, Parts: parts}
}

// Text returns the message's text parts joined with newlines.
func (m Message) Text() string {
	var texts []string
	for _, p := range m.Parts {
		if p.Kind == PartText {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// ToolCalls returns the message's tool calls in order.
func (m Message) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, p := range m.Parts {
		if p.Kind == PartToolCall && p.ToolCall != nil {
			calls = append(calls, *p.ToolCall)
		}
	}
	return calls
}

// DiscoveryCalls returns the message's discovery calls in order.
func (m Message) DiscoveryCalls() []DiscoveryCall {
	var calls []DiscoveryCall
	for _, p := range m.Parts {
		if p.Kind == PartDiscoveryCall && p.DiscoveryCall != nil {
			calls = append(calls, *p.DiscoveryCall)
		}
	}
	return calls
}

// HasPendingCalls reports whether the message holds a tool call or a
// discovery call that the application runs, which the next messages must
// answer. A hosted discovery call (DiscoveryCall.Hosted) is not pending: its
// provider ran it, so a message whose only calls are hosted ones is the
// model's answer.
func (m Message) HasPendingCalls() bool {
	for _, p := range m.Parts {
		switch {
		case p.Kind == PartToolCall:
			return true
		case p.Kind == PartDiscoveryCall && p.DiscoveryCall != nil && !p.DiscoveryCall.Hosted:
			return true
		}
	}
	return false
}

// messageFields has Message's fields without its methods.
type messageFields Message

// UnmarshalJSON decodes a message, rejecting unknown fields and roles.
func (m *Message) UnmarshalJSON(data []byte) error {
	var f messageFields
	if err := decodeStrict(data, &f); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	if !f.Role.known() {
		return fmt.Errorf("decode message: unknown role %q", f.Role)
	}
	*m = Message(f)
	return nil
}
