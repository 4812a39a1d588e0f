package runtime

// Agents used as tools: a tool whose execution is a child run of another
// agent. The child run is recorded under its own id (of constant length,
// whatever its depth), inherits the parent's labels, runs under the
// intersection of its own agent's policy and its parent run's (see
// runPolicy.child), has its own agent's caps within the depth its parent
// has left (Caps.MaxDepth), and is bounded by whatever time the parent has
// left. A child run that fails reaches the parent's model as a plain
// failure of the agent: its error, which may name tools, registries or
// endpoints the parent's model is not to see, is recorded with the child
// run (RunState.Error) for the application.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// AgentTool exposes an agent as a tool whose one argument is a request in
// words (see AgentToolRequest). A tool with arguments of its own design is
// registered with RegisterAgentToolset instead.
type AgentTool struct {
	// Tool is the tool's name within its toolset.
	Tool string
	// Agent names the agent a call runs.
	Agent string
	// Description tells the model what asking the agent does.
	Description string
}

// AgentToolRequest is the arguments of every tool registered with
// RegisterAgentTools.
type AgentToolRequest struct {
	// Request is what the calling agent asks the child agent.
	Request string `json:"request"`
}

// agentToolPayload is the argument schema of every tool registered with
// RegisterAgentTools.
var agentToolPayload = json.RawMessage(`{"type":"object","properties":{"request":{"type":"string","minLength":1,"description":"What to ask the agent, in full."}},"required":["request"],"additionalProperties":false}`)

// AgentToolset is a toolset whose tools run agents, with the tools' own
// payload schemas: an agent exported as a toolset by its design.
type AgentToolset struct {
	// Schema is the toolset's wire record. Each tool's payload schema
	// validates the calls' arguments; the validated arguments, as the
	// model sent them, are the child run's user message. The child run's
	// final text is the call's result.
	Schema tools.ToolsetSchema
	// Specs optionally holds one spec per tool of Schema whose payload
	// codec validates the arguments (a generated toolset's Specs()). When
	// nil, each tool's record is compiled (contract.Compile).
	Specs []tools.ToolSpec
	// Agents maps every tool of Schema to the agent a call runs; the
	// agents may be registered later, but before the first run of an agent
	// that uses the toolset, whose first step fails otherwise.
	Agents map[tools.Ident]string
}

// errAgentToolDirect is returned if an agent tool's executor is ever called:
// the runtime runs agent tools as child runs instead.
var errAgentToolDirect = errors.New("runtime: agent tools run as child runs")

func refuseDirect(context.Context, *ToolInvocation) (any, error) { return nil, errAgentToolDirect }

// childInput returns the user message that starts the child run of an
// admitted agent tool call: the request of a RegisterAgentTools tool, the
// validated arguments of a RegisterAgentToolset tool. A call admitted
// elsewhere has no tool at hand: its toolset is looked up by its record.
func childInput(rt *Runtime, p *PlannedCall) (string, error) {
	rec := p.Record
	if p.tool != nil {
		if !p.tool.local.agentRequests {
			return string(rec.Arguments), nil
		}
		req, ok := p.payload.(AgentToolRequest)
		if !ok {
			return "", fmt.Errorf("agent tool %q: payload is %T", rec.Tool, p.payload)
		}
		return req.Request, nil
	}
	ts, ok := rt.toolsetOf(rec.Tool)
	if !ok {
		return "", fmt.Errorf("toolset %q is not registered", rec.Tool.Toolset())
	}
	if !ts.agentRequests {
		return string(rec.Arguments), nil
	}
	var req AgentToolRequest
	if err := json.Unmarshal(rec.Arguments, &req); err != nil {
		return "", fmt.Errorf("agent tool %q: %w", rec.Tool, err)
	}
	return req.Request, nil
}

// childRunID returns the id of the child run started by a parent run's call:
// a digest of the parent's id, the step and the model's call id, so that it
// is one length at any depth and whatever call id the model chose.
func childRunID(parent string, step int, callID string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s/%d/%s", len(parent), parent, step, callID)
	return "run-" + hex.EncodeToString(h.Sum(nil)[:12])
}
