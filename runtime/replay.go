package runtime

// Replaying a recorded call. A replay is bound to what the run recorded and
// held to the policy in force now: the call must be one the run recorded,
// exactly as recorded; its tool must still be its agent's, under the
// recorded definition (a local tool) or a source the agent may still use (a
// registry tool); and the tool must be permitted, under the run's recorded
// labels, by the agent's current policy, the policies of the agents of the
// runs above a child run, and the run policy the caller gives again with
// WithPolicy (an invocation's run policy is not recorded).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ErrReplayRefused is wrapped when a recorded call cannot be replayed: the
// run did not record it as given, its local definition changed or its
// agent no longer uses it, its agent's RegistryTools no longer allows its
// source, the policy in force no longer permits it, or it ran a child
// agent.
var ErrReplayRefused = errors.New("runtime: replay refused")

// Replay executes a call recorded in a run again, bound to its record: a
// registry call is forwarded with its recorded token (the registry refuses
// it if that registration was replaced); a local call runs only while the
// toolset still has the recorded definition. rec must be one of the run's
// call records as the run recorded it. The call runs only if the tool is
// permitted now, under the run's recorded labels, by its agent's policy, by
// the policies of the agents above a child run, and by the run policy that
// opts give with WithPolicy, the only option a replay takes. Replays skip
// confirmation only if the record needs none.
func (rt *Runtime) Replay(ctx context.Context, runID string, rec CallRecord, opts ...RunOption) (model.ToolResult, error) {
	o := collect(opts)
	if o.id != "" || o.hasLabels || o.caps != (Caps{}) {
		return model.ToolResult{}, fmt.Errorf("%w: replay takes WithPolicy only: it runs under the run's id and recorded labels", ErrInvalidInput)
	}
	state, err := rt.engine.LoadRun(ctx, runID)
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("replay: %w", err)
	}
	refuse := func(err error) (model.ToolResult, error) {
		return model.ToolResult{}, fmt.Errorf("%w: run %q call %q: %w", ErrReplayRefused, runID, rec.CallID, err)
	}
	recorded, err := recordedCall(state, &rec)
	if err != nil {
		return refuse(err)
	}
	above, _, err := rt.policiesAbove(ctx, state)
	if err != nil {
		return refuse(err)
	}
	r, err := newRun(rt, &RunSpec{State: *state, Policy: o.policy, Above: above}, nil)
	if errors.Is(err, ErrInvalidInput) {
		return model.ToolResult{}, err // the policy given: nothing of the run
	}
	if err != nil {
		return model.ToolResult{}, fmt.Errorf("replay: %w", err)
	}
	t, err := rt.replayTool(r.agent, recorded)
	if err != nil {
		return refuse(err)
	}
	if !r.policy.permits(t) {
		return refuse(fmt.Errorf("tool %q is not permitted by the policy in force", recorded.Tool))
	}
	spec, err := t.payloadSpec()
	if err != nil {
		return refuse(err)
	}
	payload, err := spec.Payload.Decode(recorded.Arguments)
	if err != nil {
		return refuse(err)
	}
	// The call runs as the run ran it, without a span of its own.
	res, err := (&step{r: r, number: recorded.Step}).call(ctx, nil, &PlannedCall{Record: recorded, tool: t, payload: payload})
	if err != nil {
		return model.ToolResult{}, err
	}
	return res.Result, nil
}

// recordedCall returns the run's record of rec's call (its step and call
// id), refusing a record that differs from it in anything.
func recordedCall(state *RunState, rec *CallRecord) (*CallRecord, error) {
	i := slices.IndexFunc(state.Calls, func(c CallRecord) bool { return c.Step == rec.Step && c.CallID == rec.CallID })
	if i < 0 {
		return nil, fmt.Errorf("the run recorded no call %q in step %d", rec.CallID, rec.Step)
	}
	want, err := json.Marshal(&state.Calls[i])
	if err != nil {
		return nil, fmt.Errorf("encode the recorded call: %w", err)
	}
	got, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encode the call: %w", err)
	}
	if !bytes.Equal(got, want) {
		return nil, errors.New("the record differs from the run's")
	}
	return &state.Calls[i], nil
}

// replayTool rebuilds the catalog entry of a recorded call from its record.
func (rt *Runtime) replayTool(a *agent, rec *CallRecord) (*catalogTool, error) {
	def := rec.Definition
	t, err := newCatalogTool(&def, false, rec.Source)
	if err != nil {
		return nil, err
	}
	t.partner = rec.Partner
	switch kind := rec.Source.Kind; {
	case kind == SourceRegistry || kind == SourceMCP && rec.Source.Registry != "":
		// A registry tool, or a dynamic MCP source's, registered as a
		// registry under the server's name.
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
	case kind == SourceLocal || kind == SourceMCP:
		if !a.deferredSet[rec.Tool] && !slices.Contains(a.reg.Immediate, rec.Tool) {
			return nil, fmt.Errorf("tool %q is not a tool of agent %q", rec.Tool, a.reg.Name)
		}
		ts, ok := rt.toolsetOf(rec.Tool)
		if !ok {
			return nil, fmt.Errorf("toolset %q is not registered", rec.Tool.Toolset())
		}
		if ts.mcpServer != rec.Source.Server {
			return nil, fmt.Errorf("toolset %q is no longer bound to the recorded source, %s", rec.Tool.Toolset(), rec.Source)
		}
		if cur := ts.tool(rec.Tool); cur == nil || !sameSchema(cur, &def) {
			return nil, fmt.Errorf("tool %q no longer has the recorded definition", rec.Tool)
		}
		t.local = ts
	default:
		return nil, fmt.Errorf("calls of %s are not replayed", rec.Source)
	}
	return t, nil
}

// sameSchema reports whether two tool schemas are one definition: equal
// canonical JSON, whatever the key order or spacing of their raw schemas.
func sameSchema(a, b *tools.ToolSchema) bool {
	fa, errA := tools.SchemaFingerprint("", []tools.ToolSchema{*a})
	fb, errB := tools.SchemaFingerprint("", []tools.ToolSchema{*b})
	return errA == nil && errB == nil && fa == fb
}

// policiesAbove returns the policies of the agents of the runs above a
// recorded child run, from its parent up, with the names of their agents.
// A run above that is not recorded, whose agent is not registered, or that
// is its own ancestor fails: the policies in force for the child run would
// be unknown.
func (rt *Runtime) policiesAbove(ctx context.Context, state *RunState) ([]string, []*compiledPolicy, error) {
	var names []string
	var policies []*compiledPolicy
	seen := map[string]bool{state.ID: true}
	for id := state.ParentID; id != ""; {
		if seen[id] {
			return nil, nil, fmt.Errorf("run %q: the runs above it loop at %q", state.ID, id)
		}
		seen[id] = true
		parent, err := rt.engine.LoadRun(ctx, id)
		if err != nil {
			return nil, nil, fmt.Errorf("run %q: the run above it: %w", state.ID, err)
		}
		a, err := rt.agentNamed(parent.Agent)
		if err != nil {
			return nil, nil, fmt.Errorf("run %q: the run above it, %q: %w", state.ID, id, err)
		}
		policies = append(policies, a.policy)
		names = append(names, a.reg.Name)
		id = parent.ParentID
	}
	return names, policies, nil
}
