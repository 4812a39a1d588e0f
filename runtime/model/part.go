package model

import (
	"encoding/json"
	"fmt"
)

// PartKind says which kind of content a Part holds.
type PartKind string

// Part kinds.
const (
	// PartText is text, in any role but tool and discovery.
	PartText PartKind = "text"
	// PartToolCall is an assistant's call of a tool.
	PartToolCall PartKind = "tool_call"
	// PartDiscoveryCall is an assistant's request to discover tools.
	PartDiscoveryCall PartKind = "discovery_call"
	// PartToolResult answers a tool call.
	PartToolResult PartKind = "tool_result"
	// PartDiscoveryResult answers a discovery call.
	PartDiscoveryResult PartKind = "discovery_result"
	// PartReasoning is the model's reasoning (Claude's thinking, an OpenAI
	// reasoning item), in an assistant message.
	PartReasoning PartKind = "reasoning"
)

// Part is one piece of a message: a tagged union whose Kind says which one
// field holds the content. Use the constructors (TextPart, ToolCallPart,
// ...) to build one. JSON has the form {"kind": K, K: {...}} (for text,
// {"kind": "text", "text": "..."}), with an optional "meta".
type Part struct {
	// Kind says which field below holds the content.
	Kind PartKind `json:"kind"`
	// Text is the content of a PartText.
	Text string `json:"text,omitempty"`
	// ToolCall is the content of a PartToolCall.
	ToolCall *ToolCall `json:"tool_call,omitempty"`
	// DiscoveryCall is the content of a PartDiscoveryCall.
	DiscoveryCall *DiscoveryCall `json:"discovery_call,omitempty"`
	// ToolResult is the content of a PartToolResult.
	ToolResult *ToolResult `json:"tool_result,omitempty"`
	// DiscoveryResult is the content of a PartDiscoveryResult.
	DiscoveryResult *DiscoveryResult `json:"discovery_result,omitempty"`
	// Reasoning is the content of a PartReasoning.
	Reasoning *Reasoning `json:"reasoning,omitempty"`
	// Meta keeps provider records for this part verbatim, keyed by provider.
	Meta map[string]json.RawMessage `json:"meta,omitempty"`
}

// TextPart returns a text part.
func TextPart(text string) Part { return Part{Kind: PartText, Text: text} }

// ToolCallPart returns a tool-call part.
func ToolCallPart(c ToolCall) Part { return Part{Kind: PartToolCall, ToolCall: &c} }

// DiscoveryCallPart returns a discovery-call part.
func DiscoveryCallPart(c DiscoveryCall) Part { return Part{Kind: PartDiscoveryCall, DiscoveryCall: &c} }

// ToolResultPart returns a tool-result part.
func ToolResultPart(r ToolResult) Part { return Part{Kind: PartToolResult, ToolResult: &r} }

// DiscoveryResultPart returns a discovery-result part.
func DiscoveryResultPart(r DiscoveryResult) Part {
	return Part{Kind: PartDiscoveryResult, DiscoveryResult: &r}
}

// ReasoningPart returns a reasoning part made by provider, whose verbatim
// record is record (kept in Meta under provider).
func ReasoningPart(r Reasoning, provider string, record []byte) Part {
	return Part{Kind: PartReasoning, Reasoning: &r, Meta: map[string]json.RawMessage{provider: record}}
}

// checkShape reports a part whose fields do not match its kind.
func (p *Part) checkShape() error {
	contents := [...]struct {
		kind    PartKind
		present bool
	}{
		{PartText, p.Text != ""},
		{PartToolCall, p.ToolCall != nil},
		{PartDiscoveryCall, p.DiscoveryCall != nil},
		{PartToolResult, p.ToolResult != nil},
		{PartDiscoveryResult, p.DiscoveryResult != nil},
		{PartReasoning, p.Reasoning != nil},
	}
	switch p.Kind {
	case PartText, PartToolCall, PartDiscoveryCall, PartToolResult, PartDiscoveryResult, PartReasoning:
	default:
		return fmt.Errorf("unknown part kind %q", p.Kind)
	}
	for _, c := range contents {
		switch {
		case c.kind == p.Kind && !c.present && c.kind != PartText:
			return fmt.Errorf("%s part has no %s content", p.Kind, p.Kind)
		case c.kind != p.Kind && c.present:
			return fmt.Errorf("%s part also holds %s content", p.Kind, c.kind)
		}
	}
	return nil
}

// partFields has Part's fields without its methods.
type partFields Part

// MarshalJSON encodes the part, refusing one whose fields do not match its
// kind (it could not be decoded back).
func (p Part) MarshalJSON() ([]byte, error) {
	if err := p.checkShape(); err != nil {
		return nil, fmt.Errorf("encode part: %w", err)
	}
	return json.Marshal(partFields(p))
}

// UnmarshalJSON decodes a part, rejecting unknown fields, unknown kinds,
// content that does not match the kind and tool snapshots without
// parameters.
func (p *Part) UnmarshalJSON(data []byte) error {
	var f partFields
	if err := decodeStrict(data, &f); err != nil {
		return fmt.Errorf("decode part: %w", err)
	}
	q := Part(f)
	if err := q.checkShape(); err != nil {
		return fmt.Errorf("decode part: %w", err)
	}
	if q.DiscoveryResult != nil {
		if err := q.DiscoveryResult.checkDecoded(); err != nil {
			return fmt.Errorf("decode part: %w", err)
		}
	}
	*p = q
	return nil
}
