package model

import (
	"encoding/json"
	"fmt"
)

// ToolKind says what a declared tool is to the conversation.
type ToolKind string

// Tool kinds.
const (
	// ToolApplication is one of the application's own tools (the zero value).
	ToolApplication ToolKind = ""
	// ToolDiscovery is the discovery (tool search) tool.
	ToolDiscovery ToolKind = "discovery"
	// ToolDiscovered is a tool declared because a discovery result in the
	// history returned it.
	ToolDiscovered ToolKind = "discovered"
)

// ToolDefinition is a tool as a request declares it to the model.
type ToolDefinition struct {
	// Name is the name the model calls the tool by.
	Name string `json:"name"`
	// Description tells the model what the tool does.
	Description string `json:"description"`
	// Parameters is the JSON Schema of the tool's arguments, verbatim.
	Parameters json.RawMessage `json:"parameters"`
	// Strict asks the provider to constrain arguments to Parameters exactly.
	Strict bool `json:"strict,omitempty"`
	// Kind says whether the tool is the application's, the discovery tool,
	// or a discovered one.
	Kind ToolKind `json:"kind,omitempty"`
	// Namespace groups tools (the toolset) for providers that declare tools
	// in namespaces; empty when the tool has none.
	Namespace string `json:"namespace,omitempty"`
}

// ToolSnapshot is a discovered tool as a discovery result records it: a
// definition whose Parameters are plain JSON Schema with "type": "object" at
// the root. A snapshot in the history is rendered byte for byte the same on
// every request.
type ToolSnapshot struct {
	// Name is the name the model calls the tool by.
	Name string `json:"name"`
	// Description tells the model what the tool does.
	Description string `json:"description"`
	// Parameters is the JSON Schema of the tool's arguments, verbatim.
	Parameters json.RawMessage `json:"parameters"`
	// Strict, when set, asks for strict argument checking; nil leaves the
	// choice to the declaring side.
	Strict *bool `json:"strict,omitempty"`
	// Namespace groups tools (the toolset) for providers that declare tools
	// in namespaces.
	Namespace string `json:"namespace,omitempty"`
}

// snapshotFields has ToolSnapshot's fields without its methods.
type snapshotFields ToolSnapshot

// MarshalJSON encodes the snapshot, refusing one without parameters (nil or
// null): it would encode as "parameters": null, which a history does not
// decode back (see Part.UnmarshalJSON).
func (s ToolSnapshot) MarshalJSON() ([]byte, error) {
	if len(s.Parameters) == 0 || string(s.Parameters) == "null" {
		return nil, fmt.Errorf("encode: tool snapshot %q has no parameters", s.Name)
	}
	return json.Marshal(snapshotFields(s))
}

// Definition returns the snapshot as a declared discovered tool. Strict is
// true only when the snapshot asks for it.
func (s ToolSnapshot) Definition() ToolDefinition {
	return ToolDefinition{
		Name:        s.Name,
		Description: s.Description,
		Parameters:  s.Parameters,
		Strict:      s.Strict != nil && *s.Strict,
		Kind:        ToolDiscovered,
		Namespace:   s.Namespace,
	}
}
