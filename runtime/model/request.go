package model

import "encoding/json"

// Request is one call of a model: the history, the declared tools and the
// generation settings. Package discovery builds Tools and checks the
// history before an adapter renders the request.
type Request struct {
	// Model is the provider's model id.
	Model string `json:"model"`
	// Messages is the conversation so far, system messages included.
	Messages []Message `json:"messages"`
	// Tools are the declared tools in order: the application's tools, the
	// discovery tool when discovery is on, then the discovered tools.
	Tools []ToolDefinition `json:"tools,omitempty"`
	// Discovery configures tool discovery for this request.
	Discovery Discovery `json:"discovery,omitzero"`
	// ToolChoice constrains which tool the model calls.
	ToolChoice ToolChoice `json:"tool_choice,omitzero"`
	// MaxOutputTokens caps the tokens generated; 0 leaves the provider's
	// default where the provider has one.
	MaxOutputTokens int `json:"max_output_tokens,omitempty"`
	// Temperature sets sampling temperature; nil leaves the default.
	Temperature *float64 `json:"temperature,omitempty"`
	// ResponseFormat asks for structured output matching a JSON Schema.
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
}

// Discovery configures tool discovery on a request.
type Discovery struct {
	// Enabled declares the discovery tool, so the model can discover more
	// tools. Tools already discovered stay declared either way.
	Enabled bool `json:"enabled,omitempty"`
	// Description is the application's text, appended to the discovery
	// tool's own description.
	Description string `json:"description,omitempty"`
	// Deferred is the permitted catalog of tools that load on demand, for
	// adapters whose provider declares deferred tools up front (native
	// deferred loading). Adapters that emulate discovery ignore it.
	Deferred []ToolDefinition `json:"deferred,omitempty"`
	// ConversationCatalog asks an adapter that emulates discovery for
	// conversation catalog mode: the declared tools never change during the
	// conversation (the application's tools, the discovery tool and one
	// dispatcher that calls a discovered tool by name), and discovered tools
	// reach the model as catalog messages appended to the conversation, so
	// the provider's prompt cache keeps the prefix. Adapters rendering
	// discovery natively ignore it; each adapter also has an option that
	// turns the mode on for every request.
	ConversationCatalog bool `json:"conversation_catalog,omitempty"`
}

// ToolChoiceMode says how the model must use tools.
type ToolChoiceMode string

// Tool choice modes.
const (
	// ToolChoiceAuto lets the model decide (the zero value).
	ToolChoiceAuto ToolChoiceMode = ""
	// ToolChoiceNone forbids every tool, the discovery tool included.
	ToolChoiceNone ToolChoiceMode = "none"
	// ToolChoiceRequired requires a tool call; a discovery call satisfies it.
	ToolChoiceRequired ToolChoiceMode = "required"
	// ToolChoiceTool forces the application tool named in ToolChoice.Name.
	ToolChoiceTool ToolChoiceMode = "tool"
)

// ToolChoice constrains which tool the model calls.
type ToolChoice struct {
	// Mode is the constraint.
	Mode ToolChoiceMode `json:"mode,omitempty"`
	// Name is the forced tool when Mode is ToolChoiceTool.
	Name string `json:"name,omitempty"`
}

// ResponseFormat asks for output that is one JSON value matching Schema.
// Structured-output requests declare no discovered tools.
type ResponseFormat struct {
	// Name names the format, as providers require.
	Name string `json:"name"`
	// Description explains the format to the model.
	Description string `json:"description,omitempty"`
	// Schema is the JSON Schema of the output, verbatim.
	Schema json.RawMessage `json:"schema"`
	// Strict asks the provider to constrain output to Schema exactly.
	Strict bool `json:"strict,omitempty"`
}
