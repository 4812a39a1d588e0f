package runtime

// Admitting and executing tool calls. A call is admitted when its tool is in
// the step's catalog, permitted by the run's policy, already discovered (for
// a deferred tool) under the definition the catalog still has, and its
// arguments are valid. Anything else is answered with an error result and
// never executed. An admitted call is bound to a CallRecord at admission.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// admission is a tool call with the runtime's decision about it.
type admission struct {
	call    model.ToolCall
	tool    *catalogTool
	record  CallRecord
	payload any
	refusal string // the error result's text when the call is refused
}

// admit decides on one call.
func (r *run) admit(cat *catalog, call model.ToolCall, step int) admission {
	a := admission{call: call}
	refuse := func(format string, args ...any) admission {
		a.refusal = fmt.Sprintf(format, args...)
		return a
	}
	if call.Name == DiscoveryToolName {
		return refuse("%q finds tools; it is not called as a tool here.", call.Name)
	}
	t := cat.byName[call.Name]
	if t == nil || !r.policy.permits(t) {
		return refuse("Tool %q is not available in this run.", call.Name)
	}
	if t.deferred {
		snap, ok := r.ledger.Snapshot(call.Name)
		switch {
		case !ok:
			return refuse("Tool %q has not been discovered yet. Call %s with names [%q] first, then call the tool.", call.Name, DiscoveryToolName, call.Name)
		case !sameSnapshot(snap, t.snapshot):
			return refuse("Tool %q changed since it was discovered. Call %s with names [%q] again, then call the tool.", call.Name, DiscoveryToolName, call.Name)
		}
	}
	if len(call.Arguments) == 0 {
		return refuse("The arguments of %q are not valid JSON.", call.Name)
	}
	if err := checkServerOnly(t.schema.Contract, call.Arguments); err != nil {
		return refuse("Invalid arguments for %q: %v", call.Name, err)
	}
	payload, err := t.decode(&cat.checker, call)
	if err != nil {
		return refuse("Invalid arguments for %q: %v", call.Name, err)
	}
	a.tool, a.payload = t, payload
	a.record = CallRecord{
		CallID:     call.ID,
		Step:       step,
		Name:       call.Name,
		Tool:       t.id,
		Source:     t.source,
		Definition: *t.schema,
		Partner:    t.partner,
		Arguments:  call.Arguments,
	}
	return a
}

// checkServerOnly refuses arguments that set a field the server fills.
func checkServerOnly(c *tools.Contract, args json.RawMessage) error {
	if c == nil || len(c.ServerOnlyFields) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		return fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	for _, f := range c.ServerOnlyFields {
		if _, set := obj[f]; set {
			return fmt.Errorf("field %q is filled by the server and cannot be set", f)
		}
	}
	return nil
}

// decode validates a call's arguments against what the model was shown and
// decodes them: a local tool's with its spec's codec; the others' (and a
// local tool's whose model schema hides server-only fields) with discovery's
// argument check against the snapshot, keeping them as raw JSON.
func (t *catalogTool) decode(checker *discovery.ArgumentChecker, call model.ToolCall) (any, error) {
	if t.local != nil && (t.schema.Contract == nil || len(t.schema.Contract.ServerOnlyFields) == 0) {
		return t.local.specs[t.id].Payload.Decode(call.Arguments)
	}
	if err := checker.Check(t.snapshot, call); err != nil {
		var aerr *discovery.ArgumentError
		if errors.As(err, &aerr) {
			return nil, aerr.Err
		}
		return nil, err
	}
	return bytes.Clone(call.Arguments), nil
}

// execute confirms and runs an admitted call. ran reports whether the tool
// ran; an error ends the run.
func (r *run) execute(ctx context.Context, a *admission) (res model.ToolResult, ran bool, err error) {
	ok, res, err := r.confirm(ctx, a)
	if err != nil || !ok {
		return res, false, err
	}
	var content string
	switch a.tool.source.Kind {
	case SourceRegistry:
		var raw json.RawMessage
		raw, err = a.tool.registry.CallTool(ctx, &RegistryCall{
			RunID: r.id, CallID: a.call.ID, Tool: a.tool.id, Token: a.record.Source.Token, Arguments: a.call.Arguments,
		})
		content = string(raw)
	case SourceAgent:
		content, err = r.childRun(ctx, a)
	default:
		content, err = r.executeLocal(ctx, a)
	}
	if err != nil {
		return errorResult(a.call, "The tool failed: "+err.Error()), true, nil
	}
	return model.ToolResult{CallID: a.call.ID, Name: a.call.Name, Content: content}, true, nil
}

// executeLocal runs a call with its toolset's executor and encodes the
// result.
func (r *run) executeLocal(ctx context.Context, a *admission) (string, error) {
	ts := a.tool.local
	v, err := ts.executor.Execute(ctx, &ToolInvocation{
		RunID:     r.id,
		CallID:    a.call.ID,
		Tool:      a.tool.id,
		Arguments: a.call.Arguments,
		Payload:   a.payload,
		Labels:    maps.Clone(r.policy.labels),
	})
	if err != nil {
		return "", err
	}
	return encodeResult(ts.specs[a.tool.id], v)
}

// errInvalidResult is wrapped when a tool's result breaks its schema.
var errInvalidResult = errors.New("invalid result")

// encodeResult encodes a tool's result for the model.
func encodeResult(spec *tools.ToolSpec, v any) (string, error) {
	if spec.Result != nil {
		b, err := spec.Result.Encode(v)
		if err != nil {
			return "", fmt.Errorf("%w: %w", errInvalidResult, err)
		}
		return string(b), nil
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case json.RawMessage:
		if !json.Valid(v) {
			return "", fmt.Errorf("%w: not valid JSON", errInvalidResult)
		}
		return string(v), nil
	case nil:
		return "", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errInvalidResult, err)
	}
	return string(b), nil
}

// confirm asks the runtime's confirmer about a call whose recorded
// definition requires confirmation. ok is false with the result to send when
// the call must not run.
func (r *run) confirm(ctx context.Context, a *admission) (ok bool, res model.ToolResult, err error) {
	title, text, needed, err := a.record.Confirmation()
	if !needed {
		return true, res, nil
	}
	if err != nil {
		return false, errorResult(a.call, "The call's confirmation cannot be shown: "+err.Error()), nil
	}
	if r.rt.confirmer == nil {
		return false, errorResult(a.call, "This call needs confirmation, and this run cannot ask for it."), nil
	}
	yes, err := r.rt.confirmer.Confirm(ctx, ConfirmationRequest{RunID: r.id, Call: a.record, Title: title, Text: text})
	if err != nil {
		return false, res, fmt.Errorf("confirm: %w", err)
	}
	if !yes {
		return false, errorResult(a.call, "The call was declined."), nil
	}
	return true, res, nil
}
