package model

import (
	"encoding/json"
	"fmt"
)

// ToolCall is an assistant's call of a declared tool.
type ToolCall struct {
	// ID identifies the call within the conversation; its result names it.
	ID string `json:"id"`
	// Name is the declared name of the called tool.
	Name string `json:"name"`
	// Arguments is the JSON value the model produced, kept verbatim (as
	// encoding/json keeps raw JSON: compact). Empty when the model produced
	// text that is not JSON.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// MalformedArguments holds, verbatim, argument text that is not valid
	// JSON, so the call can be answered with an error result and sent back
	// as the model wrote it. Set exactly when Arguments is empty.
	MalformedArguments string `json:"malformed_arguments,omitempty"`
}

// DiscoveryCall is an assistant's request to discover tools: by exact Names,
// by a keyword Query, or both. It is never a ToolCall.
type DiscoveryCall struct {
	// ID identifies the call; its result names it.
	ID string `json:"id"`
	// Names lists exact tool names to load.
	Names []string `json:"names,omitempty"`
	// Query is a keyword query for tool search.
	Query string `json:"query,omitempty"`
	// Hosted marks a search its provider runs itself (Anthropic's hosted
	// tool search): the provider's records of the call and of its outcome
	// travel in the part's Meta, and Names, once known, are the tools the
	// provider loaded. The application still answers a hosted call with a
	// DiscoveryResult, which records what was found, but a hosted call never
	// keeps a turn open (Message.HasPendingCalls).
	Hosted bool `json:"hosted,omitempty"`
}

// Reasoning is the model's reasoning as its provider returned it. Only
// the provider that made it can read it back: the provider's record (a
// thinking or redacted_thinking block, a reasoning item with its signature
// or encrypted content) is kept verbatim in the part's Meta under the
// provider's name, and an adapter sends a reasoning part back exactly from
// its own record. Every other adapter drops it: a signature or an
// encrypted item is valid only where it was made, and the neutral text is
// a summary, not something any provider accepts as reasoning.
type Reasoning struct {
	// Text is the readable reasoning or its summary, when the provider
	// returned any; empty for redacted or encrypted reasoning.
	Text string `json:"text,omitempty"`
	// Redacted marks reasoning the provider returned encrypted only.
	Redacted bool `json:"redacted,omitempty"`
}

// ToolResult answers a ToolCall.
type ToolResult struct {
	// CallID is the ID of the answered call.
	CallID string `json:"call_id"`
	// Name is the name of the called tool.
	Name string `json:"name"`
	// Content is what the model reads: the tool's encoded result or an
	// error message.
	Content string `json:"content"`
	// IsError marks a result that reports a failure.
	IsError bool `json:"is_error,omitempty"`
}

// DiscoveryResult answers exactly one DiscoveryCall: the discovered tools,
// or none with an optional note explaining the empty result.
type DiscoveryResult struct {
	// CallID is the ID of the answered call.
	CallID string `json:"call_id"`
	// Tools are the discovered tools' snapshots, in the order returned.
	Tools []ToolSnapshot `json:"tools,omitempty"`
	// Note explains an empty result; allowed only without Tools.
	Note string `json:"note,omitempty"`
}

// checkDecoded refuses a decoded result holding a snapshot whose parameters
// are absent or null: a snapshot records the schema its tool was found
// with, and one without it could be neither declared nor encoded back as it
// was read.
func (r *DiscoveryResult) checkDecoded() error {
	for i, s := range r.Tools {
		if len(s.Parameters) == 0 || string(s.Parameters) == "null" {
			return fmt.Errorf("tool snapshot %q at \"/discovery_result/tools/%d\" has no parameters", s.Name, i)
		}
	}
	return nil
}
