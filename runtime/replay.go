package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// ErrReplayRefused is wrapped when a recorded call cannot be replayed: its
// local definition changed, its agent's RegistryTools no longer allows its
// source, or it ran a child agent.
var ErrReplayRefused = errors.New("runtime: replay refused")

// Replay executes a call recorded in a run again, bound to its record: a
// registry call is forwarded with its recorded token (the registry refuses
// it if that registration was replaced); a local call runs only while the
// toolset still has the recorded definition. Replays skip confirmation only
// if the record needs none.
func (rt *Runtime) Replay(ctx context.Context, runID string, rec CallRecord) (model.ToolResult, error) {
	state, err := rt.engine.LoadRun(ctx, runID)
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("replay: %w", err)
	}
	a, err := rt.agentNamed(state.Agent)
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("replay: %w", err)
	}
	t, err := rt.replayTool(a, rec)
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("%w: call %q: %w", ErrReplayRefused, rec.CallID, err)
	}
	call := model.ToolCall{ID: rec.CallID, Name: rec.Name, Arguments: rec.Arguments}
	spec, err := t.payloadSpec()
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("%w: call %q: %w", ErrReplayRefused, rec.CallID, err)
	}
	payload, err := spec.Payload.Decode(call.Arguments)
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("%w: call %q: %w", ErrReplayRefused, rec.CallID, err)
	}
	r := &run{rt: rt, agent: a, id: runID, state: state,
		policy: newRunPolicy(state.Labels, a.policy)}
	res, _, err := r.execute(ctx, &admission{call: call, tool: t, record: rec, payload: payload})
	return res, err
}

// replayTool rebuilds the catalog entry of a recorded call from its record.
func (rt *Runtime) replayTool(a *agent, rec CallRecord) (*catalogTool, error) {
	def := rec.Definition
	t, err := newCatalogTool(&def, false, rec.Source)
	if err != nil {
		return nil, err
	}
	t.partner = rec.Partner
	switch rec.Source.Kind {
	case SourceRegistry:
		src := RegistrySource{Registry: rec.Source.Registry, Toolset: rec.Source.Toolset}
		declared := slices.ContainsFunc(a.reg.Registries, func(s RegistrySource) bool {
			return s.Registry == src.Registry && (s.Toolset == "" || s.Toolset == src.Toolset)
		})
		if !declared && (a.registryTools == nil || !a.registryTools.Allows(src)) {
			return nil, fmt.Errorf("source %s is no longer allowed", src)
		}
		client, ok := rt.registryNamed(src.Registry)
		if !ok {
			return nil, fmt.Errorf("registry %q is not registered", src.Registry)
		}
		t.registry = client
	case SourceLocal:
		ts, ok := rt.toolsetOf(rec.Tool)
		if !ok {
			return nil, fmt.Errorf("toolset %q is not registered", rec.Tool.Toolset())
		}
		cur := ts.tool(rec.Tool)
		if cur == nil || !bytes.Equal(cur.Payload, def.Payload) || cur.Description != def.Description {
			return nil, fmt.Errorf("tool %q no longer has the recorded definition", rec.Tool)
		}
		t.local = ts
	default:
		return nil, fmt.Errorf("calls of %s are not replayed", rec.Source)
	}
	return t, nil
}
