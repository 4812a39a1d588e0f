package tools

// ToolSchema and ToolsetSchema are the one wire record of a tool and of a
// toolset. Generated code emits them (Toolset(), ToolSchemas()), the registry
// stores and serves them, its clients decode them and the contract compiler
// turns them into ToolSpecs. No other package defines its own copy.

import (
	"encoding/json"
	"time"
)

// ToolsetSchema describes a toolset: its registration record.
type ToolsetSchema struct {
	// Name is the toolset name, the first segment of each tool's Ident.
	Name string `json:"name"`
	// Title is an optional human-readable title.
	Title string `json:"title,omitempty"`
	// Description says what the toolset is for.
	Description string `json:"description,omitempty"`
	// Tags classify the toolset.
	Tags []string `json:"tags,omitempty"`
	// Version is the toolset's published version, if any.
	Version string `json:"version,omitempty"`
	// Tools lists the toolset's tools.
	Tools []ToolSchema `json:"tools"`
	// RegisteredAt is when a registry accepted the record; the zero time when
	// the record was not registered. No fingerprint covers it.
	RegisteredAt time.Time `json:"registered_at,omitzero"`
}

// ToolSchema describes one tool.
type ToolSchema struct {
	// Name is the tool's identifier ("toolset.tool").
	Name Ident `json:"name"`
	// Title is an optional human-readable title.
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does.
	Description string `json:"description"`
	// Tags classify the tool.
	Tags []string `json:"tags,omitempty"`
	// Payload is the JSON Schema (2020-12) of the tool's arguments, an
	// object schema, kept verbatim.
	Payload json.RawMessage `json:"payload"`
	// Result is the JSON Schema (2020-12) of the tool's result, kept
	// verbatim; empty when the tool returns no structured result.
	Result json.RawMessage `json:"result,omitempty"`
	// Contract is what a consumer must honour when it offers and calls the
	// tool.
	Contract *Contract `json:"contract,omitempty"`
}

// Contract is the consumer contract of a tool: metadata that is not part of
// the JSON Schema but that consumers must honour.
type Contract struct {
	// SearchTerms are extra keywords under which tool search finds the tool.
	SearchTerms []string `json:"search_terms,omitempty"`
	// Fields annotates payload fields, in authored order.
	Fields []FieldMeta `json:"fields,omitempty"`
	// RequiredLabels gate the tool: a run may use it only when each of
	// these run labels is set to the given value.
	RequiredLabels map[string]string `json:"required_labels,omitempty"`
	// Confirmation, when set, is rendered and confirmed before each call.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
	// PaginationPartner names the tool that fetches further pages of this
	// tool's results; it travels with the tool wherever the tool goes.
	PaginationPartner Ident `json:"pagination_partner,omitempty"`
	// ServerOnlyFields are top-level payload properties that the server
	// fills; they are removed from the schema the model sees and never
	// accepted from the model.
	ServerOnlyFields []string `json:"server_only_fields,omitempty"`
}

// FieldMeta annotates one payload field.
type FieldMeta struct {
	// Path locates the field as a JSON Pointer into the payload
	// ("/customer/id").
	Path string `json:"path"`
	// Label is a short human-readable name for the field.
	Label string `json:"label,omitempty"`
	// Description explains the field to people reviewing a call.
	Description string `json:"description,omitempty"`
	// Sensitive marks values that must be masked when shown to people.
	Sensitive bool `json:"sensitive,omitempty"`
}

// Confirmation describes the confirmation shown before a call.
type Confirmation struct {
	// Title heads the confirmation prompt.
	Title string `json:"title,omitempty"`
	// Template is a Go text/template over the call's decoded JSON payload:
	// `{{ .key }}` for a property, `{{ json .value }}` for its JSON
	// encoding and `{{ index . "key" }}` for optional properties.
	Template string `json:"template"`
}

// AllowsLabels reports whether a run with the given labels satisfies the
// contract's required labels. A nil contract requires nothing.
func (c *Contract) AllowsLabels(labels map[string]string) bool {
	if c == nil {
		return true
	}
	for k, want := range c.RequiredLabels {
		if got, ok := labels[k]; !ok || got != want {
			return false
		}
	}
	return true
}
