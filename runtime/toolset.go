package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ToolsetRegistration binds an executor to a toolset. The registration
// helper generated per toolset builds one from the toolset's Toolset() and
// Specs and a typed executor.
type ToolsetRegistration struct {
	// Schema is the toolset's wire record: its name and tool schemas. The
	// runtime keeps its own copy.
	Schema tools.ToolsetSchema
	// Specs holds one spec per tool of Schema, with the codecs that
	// validate and decode arguments and encode results.
	Specs []tools.ToolSpec
	// Executor runs the toolset's tools.
	Executor ToolExecutor
	// MCPServer names the MCP server whose tools Executor calls, for a
	// toolset declared in the design and bound to a session of that server
	// (runtime/mcp.RegisterToolset); calls of its tools are recorded with
	// SourceMCP and the server's name. Empty for any other toolset.
	MCPServer string
}

// ToolExecutor executes admitted calls of one toolset's tools. Concurrent
// runs call it concurrently.
type ToolExecutor interface {
	// Execute runs one call. The returned value is the tool's result,
	// encoded with the spec's result codec (or as JSON when the tool has
	// none; a string is passed to the model as it is). An error is reported
	// to the model as an error result; an error after ctx ends ends the run.
	Execute(ctx context.Context, call *ToolInvocation) (any, error)
}

// ToolExecutorFunc adapts a function to ToolExecutor.
type ToolExecutorFunc func(ctx context.Context, call *ToolInvocation) (any, error)

// Execute calls f.
func (f ToolExecutorFunc) Execute(ctx context.Context, call *ToolInvocation) (any, error) {
	return f(ctx, call)
}

// ToolInvocation is an admitted call handed to an executor.
type ToolInvocation struct {
	// RunID is the run making the call.
	RunID string
	// CallID is the model's id of the call.
	CallID string
	// Step is the planning step that admitted the call: with RunID and
	// CallID it identifies the call, so an executor can recognise a call
	// an engine retries.
	Step int
	// Tool is the called tool.
	Tool tools.Ident
	// Arguments are the validated arguments, verbatim.
	Arguments json.RawMessage
	// Payload is Arguments decoded by the tool's payload codec: a T for a
	// tools.TypedCodec[T], a json.RawMessage for a tools.RawCodec.
	Payload any
	// Labels is a copy of the run's labels.
	Labels map[string]string
}

// toolset is a registered toolset.
type toolset struct {
	schema   tools.ToolsetSchema
	specs    map[tools.Ident]*tools.ToolSpec
	byIdent  map[tools.Ident]*tools.ToolSchema
	executor ToolExecutor
	// agents maps the tools of an agent toolset to the agents they run.
	agents map[tools.Ident]string
	// agentRequests marks an agent toolset of RegisterAgentTools, whose
	// calls carry an AgentToolRequest; the calls of any other agent
	// toolset carry the arguments of its tools' own schemas.
	agentRequests bool
	// mcpServer is ToolsetRegistration.MCPServer.
	mcpServer string
}

func newToolset(reg ToolsetRegistration) (*toolset, error) {
	name := reg.Schema.Name
	if err := tools.ValidateName(name); err != nil {
		return nil, fmt.Errorf("%w: toolset: %w", ErrInvalidRegistration, err)
	}
	if reg.Executor == nil {
		return nil, fmt.Errorf("%w: toolset %q has no executor", ErrInvalidRegistration, name)
	}
	schema := cloneToolsetSchema(reg.Schema)
	specs := make(map[tools.Ident]*tools.ToolSpec, len(reg.Specs))
	for i := range reg.Specs {
		s := reg.Specs[i]
		if s.Payload == nil {
			return nil, fmt.Errorf("%w: toolset %q: tool %q has no payload codec", ErrInvalidRegistration, name, s.Name)
		}
		if _, dup := specs[s.Name]; dup {
			return nil, fmt.Errorf("%w: toolset %q: spec %q given twice", ErrInvalidRegistration, name, s.Name)
		}
		specs[s.Name] = &s
	}
	seen := make(map[tools.Ident]bool, len(schema.Tools))
	for _, t := range schema.Tools {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("%w: toolset %q: %w", ErrInvalidRegistration, name, err)
		}
		if t.Name.Toolset() != name {
			return nil, fmt.Errorf("%w: toolset %q: tool %q belongs to toolset %q", ErrInvalidRegistration, name, t.Name, t.Name.Toolset())
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("%w: toolset %q: tool %q listed twice", ErrInvalidRegistration, name, t.Name)
		}
		seen[t.Name] = true
		if specs[t.Name] == nil {
			return nil, fmt.Errorf("%w: toolset %q: tool %q has no spec", ErrInvalidRegistration, name, t.Name)
		}
	}
	for id := range specs {
		if !seen[id] {
			return nil, fmt.Errorf("%w: toolset %q: spec %q names no tool of the schema", ErrInvalidRegistration, name, id)
		}
	}
	byIdent := make(map[tools.Ident]*tools.ToolSchema, len(schema.Tools))
	for i := range schema.Tools {
		byIdent[schema.Tools[i].Name] = &schema.Tools[i]
	}
	if reg.MCPServer != "" {
		if err := tools.ValidateName(reg.MCPServer); err != nil {
			return nil, fmt.Errorf("%w: toolset %q: MCP server: %w", ErrInvalidRegistration, name, err)
		}
	}
	return &toolset{schema: schema, specs: specs, byIdent: byIdent, executor: reg.Executor, mcpServer: reg.MCPServer}, nil
}

// cloneToolsetSchema copies the parts of a schema that a caller could
// change after registering it.
func cloneToolsetSchema(s tools.ToolsetSchema) tools.ToolsetSchema {
	c := s
	c.Tags = append([]string(nil), s.Tags...)
	c.Tools = make([]tools.ToolSchema, len(s.Tools))
	for i, t := range s.Tools {
		t.Payload = append(json.RawMessage(nil), t.Payload...)
		t.Result = append(json.RawMessage(nil), t.Result...)
		c.Tools[i] = t
	}
	return c
}
