package runtime

// Agents used as tools: a tool whose execution is a child run of another
// agent. The child run is recorded under its own id, inherits the parent's
// labels and run policy, has its own agent's caps and policy, and is bounded
// by whatever time the parent has left.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// AgentTool exposes an agent as a tool.
type AgentTool struct {
	// Tool is the tool's name within its toolset.
	Tool string
	// Agent names the agent a call runs.
	Agent string
	// Description tells the model what asking the agent does.
	Description string
}

// AgentToolRequest is the arguments of every agent tool.
type AgentToolRequest struct {
	// Request is what the calling agent asks the child agent.
	Request string `json:"request"`
}

// agentToolPayload is the argument schema of every agent tool.
var agentToolPayload = json.RawMessage(`{"type":"object","properties":{"request":{"type":"string","minLength":1,"description":"What to ask the agent, in full."}},"required":["request"],"additionalProperties":false}`)

// RegisterAgentTools registers a toolset whose tools run agents. Agents use
// it like any toolset (immediate or deferred); the named agents may be
// registered later.
func (rt *Runtime) RegisterAgentTools(toolsetName string, agentTools ...AgentTool) error {
	payload, err := tools.CompileSchema(agentToolPayload)
	if err != nil {
		return fmt.Errorf("agent tool payload schema: %w", err)
	}
	reg := ToolsetRegistration{
		Schema:   tools.ToolsetSchema{Name: toolsetName},
		Executor: ToolExecutorFunc(refuseDirect),
	}
	agents := make(map[tools.Ident]string, len(agentTools))
	for _, at := range agentTools {
		id, err := tools.NewIdent(toolsetName, at.Tool)
		if err != nil {
			return fmt.Errorf("%w: agent tool: %w", ErrInvalidRegistration, err)
		}
		if at.Agent == "" {
			return fmt.Errorf("%w: agent tool %q names no agent", ErrInvalidRegistration, id)
		}
		reg.Schema.Tools = append(reg.Schema.Tools, tools.ToolSchema{Name: id, Description: at.Description, Payload: agentToolPayload})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: at.Description, Payload: tools.NewTypedCodec[AgentToolRequest](payload)})
		agents[id] = at.Agent
	}
	ts, err := newToolset(reg)
	if err != nil {
		return err
	}
	ts.agents = agents
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if _, dup := rt.toolsets[toolsetName]; dup {
		return fmt.Errorf("%w: toolset %q", ErrAlreadyRegistered, toolsetName)
	}
	rt.toolsets[toolsetName] = ts
	rt.generation++
	return nil
}

// errAgentToolDirect is returned if an agent tool's executor is ever called:
// the runtime runs agent tools as child runs instead.
var errAgentToolDirect = errors.New("runtime: agent tools run as child runs")

func refuseDirect(context.Context, *ToolInvocation) (any, error) { return nil, errAgentToolDirect }

// childRun runs the agent behind an agent tool and returns its final text.
func (r *run) childRun(ctx context.Context, a *admission) (string, error) {
	req, ok := a.payload.(AgentToolRequest)
	if !ok {
		return "", fmt.Errorf("agent tool %q: payload is %T", a.tool.id, a.payload)
	}
	child, err := r.rt.agentNamed(a.tool.source.Agent)
	if err != nil {
		return "", err
	}
	id := fmt.Sprintf("%s/%d/%s", r.id, a.record.Step, a.call.ID)
	a.record.ChildRunID = id
	state := &RunState{ID: id, Agent: child.reg.Name, ParentID: r.id, Labels: r.policy.labels, Status: RunActive}
	out, err := r.rt.invokeChild(ctx, child, state, model.UserMessage(req.Request), r.policy.run)
	if err != nil {
		var capErr *CapError
		if errors.As(err, &capErr) {
			return "", fmt.Errorf("agent %q stopped before answering: %s", child.reg.Name, capErr.Reason)
		}
		return "", fmt.Errorf("agent %q: %w", child.reg.Name, err)
	}
	return out.Final.Text(), nil
}
