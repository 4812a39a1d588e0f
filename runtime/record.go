package runtime

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// SourceKind says where a tool comes from.
type SourceKind string

// Source kinds.
const (
	// SourceLocal: a toolset registered with RegisterToolset.
	SourceLocal SourceKind = "local"
	// SourceRegistry: a toolset read from a registry.
	SourceRegistry SourceKind = "registry"
	// SourceAgent: an agent registered as a tool with RegisterAgentTools.
	SourceAgent SourceKind = "agent"
	// SourceMCP: a tool of an MCP server, from a toolset registered with
	// ToolsetRegistration.MCPServer (its tools declared in the design) or
	// from a RegistryClient that is an MCPSource (its tools read from the
	// server's list).
	SourceMCP SourceKind = "mcp"
)

// ToolSource says where a tool came from when a call was admitted.
type ToolSource struct {
	// Kind says where the tool comes from.
	Kind SourceKind `json:"kind"`
	// Toolset names the tool's toolset.
	Toolset string `json:"toolset"`
	// Version is the toolset's version, when it has one.
	Version string `json:"version,omitempty"`
	// Registry names the registry of a registry tool, and the name a
	// dynamic MCP source is registered under (RegisterRegistry).
	Registry string `json:"registry,omitempty"`
	// Server names the MCP server of an MCP tool.
	Server string `json:"server,omitempty"`
	// Fingerprint identifies the registration of a registry tool, or the
	// list of a dynamic MCP source.
	Fingerprint tools.Fingerprint `json:"fingerprint,omitempty"`
	// Token is the registration token of a registry tool, or the list
	// token of a dynamic MCP source; calls forwarded to the registry or
	// source carry it.
	Token string `json:"token,omitempty"`
	// Agent names the agent of an agent used as a tool.
	Agent string `json:"agent,omitempty"`
}

// String describes the source for error messages.
func (s ToolSource) String() string {
	switch s.Kind {
	case SourceRegistry:
		return fmt.Sprintf("registry %q toolset %q", s.Registry, s.Toolset)
	case SourceAgent:
		return fmt.Sprintf("agent %q", s.Agent)
	case SourceMCP:
		return fmt.Sprintf("mcp server %q toolset %q", s.Server, s.Toolset)
	}
	return fmt.Sprintf("local toolset %q", s.Toolset)
}

// CallRecord is an admitted tool call bound to the exact definition it was
// admitted under. Decoding its arguments, rendering its confirmation and
// replaying it use this record, never a later catalog.
type CallRecord struct {
	// CallID is the model's id of the call.
	CallID string `json:"call_id"`
	// Step is the planning step, counted over the run's invocations, that
	// admitted the call.
	Step int `json:"step"`
	// Name is the name the model called the tool by.
	Name string `json:"name"`
	// Tool is the tool's identifier.
	Tool tools.Ident `json:"tool"`
	// Source says where the tool came from, with its registration token.
	Source ToolSource `json:"source"`
	// Definition is the tool's schema as admitted.
	Definition tools.ToolSchema `json:"definition"`
	// Partner is the pagination partner's schema, when the tool has one.
	Partner *tools.ToolSchema `json:"partner,omitempty"`
	// Arguments are the validated arguments, verbatim.
	Arguments json.RawMessage `json:"arguments"`
	// ChildRunID identifies the child run of an agent used as a tool.
	ChildRunID string `json:"child_run_id,omitempty"`
	// Error is why the execution failed, in full, for the application. The
	// model's error result may say less: it never carries an address or
	// path from the error, nor a child run's error.
	Error string `json:"error,omitempty"`
}

// DecodeArguments validates the call's arguments against the recorded
// definition, as contract.Compile makes it executable (the payload schema
// the model sees; fields the server fills are refused), and returns them as
// raw JSON.
func (r *CallRecord) DecodeArguments() (json.RawMessage, error) {
	spec, err := contract.Compile(&r.Definition)
	if err != nil {
		return nil, fmt.Errorf("call %q: recorded definition: %w", r.CallID, err)
	}
	v, err := spec.Payload.Decode(r.Arguments)
	if err != nil {
		return nil, fmt.Errorf("call %q: %w", r.CallID, err)
	}
	return v.(json.RawMessage), nil
}

// Confirmation renders the recorded definition's confirmation over the
// call's arguments with contract.Confirm: fields the contract marks
// sensitive show as contract.Masked. ok is false when the definition asks
// for none.
func (r *CallRecord) Confirmation() (title, text string, ok bool, err error) {
	c := r.Definition.Contract
	if c == nil || c.Confirmation == nil {
		return "", "", false, nil
	}
	prompt, err := contract.Confirm(&tools.ToolSpec{Name: r.Tool, Contract: c}, r.Arguments)
	if err != nil {
		return "", "", true, fmt.Errorf("call %q: %w", r.CallID, err)
	}
	return prompt.Title, prompt.Text, true, nil
}

// toolCall returns the model's call that the record admitted.
func (r *CallRecord) toolCall() model.ToolCall {
	return model.ToolCall{ID: r.CallID, Name: r.Name, Arguments: r.Arguments}
}
