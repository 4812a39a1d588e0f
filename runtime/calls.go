package runtime

// Admitting and executing tool calls. A call is admitted when its tool is in
// the step's catalog, permitted by the run's policy, already discovered (for
// a deferred tool) under the definition the catalog still has, and its
// arguments pass the payload codec of the tool's executable contract (see
// payloadSpec). Anything else is answered with an error result and never
// executed. An admitted call is bound to a CallRecord at admission.
//
// A model may give calls of different steps one id: some OpenAI-compatible
// endpoints number the calls of each response from zero. Such a call is
// admitted like any other, and a registry call carries its step
// (RegistryCall.Step) so that the registry keys it by run, step and id and
// never takes it for a retry of the earlier call. Refusing it instead would
// leave the history no different: the assistant message holding the reused
// id stays, and its result must answer it under that id. History validation
// pairs results with the calls of the assistant message before them, so an
// id reused in a later message is valid history; refusing would only stop
// such models from calling a tool twice in a run.

import (
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
	reason  RefusalReason
}

// admit decides on one call. An error (a tool record whose contract does
// not compile) fails the step.
func (r *run) admit(cat *catalog, call model.ToolCall, step int) (admission, error) {
	a := admission{call: call}
	refuse := func(reason RefusalReason, format string, args ...any) admission {
		a.refusal, a.reason = fmt.Sprintf(format, args...), reason
		return a
	}
	if call.Name == DiscoveryToolName {
		return refuse(RefusedDiscoveryTool, "%q finds tools; it is not called as a tool here.", call.Name), nil
	}
	// An unknown tool and a hidden one get the same answer: the model
	// learns nothing of what the policy hides.
	t := cat.byName[call.Name]
	if t == nil {
		return refuse(RefusedUnknown, "Tool %q is not available in this run.", call.Name), nil
	}
	if !r.policy.permits(t) {
		return refuse(RefusedHidden, "Tool %q is not available in this run.", call.Name), nil
	}
	if t.deferred {
		snap, ok := r.ledger.Snapshot(call.Name)
		switch {
		case !ok:
			return refuse(RefusedNotDiscovered, "Tool %q has not been discovered yet. Call %s with names [%q] first, then call the tool.", call.Name, DiscoveryToolName, call.Name), nil
		case !discovery.SameSnapshot(snap, t.snapshot):
			return refuse(RefusedChanged, "Tool %q changed since it was discovered. Call %s with names [%q] again, then call the tool.", call.Name, DiscoveryToolName, call.Name), nil
		}
	}
	if len(call.Arguments) == 0 {
		return refuse(RefusedInvalidArguments, "The arguments of %q are not valid JSON.", call.Name), nil
	}
	spec, err := t.payloadSpec()
	if err != nil {
		return a, err
	}
	payload, err := spec.Payload.Decode(call.Arguments)
	if err != nil {
		return refuse(RefusedInvalidArguments, "Invalid arguments for %q: %v", call.Name, err), nil
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
	return a, nil
}

// execute confirms and runs an admitted call. ran reports whether the tool
// ran; an error ends the run.
func (r *run) execute(ctx context.Context, a *admission) (res model.ToolResult, ran bool, err error) {
	ok, res, err := r.confirm(ctx, a)
	if err != nil || !ok {
		return res, false, err
	}
	var content string
	switch {
	case a.tool.registry != nil: // a registry tool, or a dynamic MCP source's
		var raw json.RawMessage
		raw, err = a.tool.registry.CallTool(ctx, &RegistryCall{
			RunID: r.id, CallID: a.call.ID, Step: a.record.Step, Tool: a.tool.id, Token: a.record.Source.Token, Arguments: a.call.Arguments,
		})
		if err == nil {
			err = checkResult(a.tool, raw)
		}
		content = string(raw)
	case a.tool.source.Kind == SourceAgent:
		content, err = r.childRun(ctx, a)
	default:
		content, err = r.executeLocal(ctx, a)
	}
	if err != nil {
		forModel, forRecord := failureTexts(err)
		a.record.Error = forRecord
		return errorResult(a.call, forModel), true, nil
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
		Step:      a.record.Step,
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

// checkResult validates a registry tool's JSON result with the result codec
// of its compiled contract, when its record has a result schema.
func checkResult(t *catalogTool, raw json.RawMessage) error {
	spec, err := t.payloadSpec()
	if err != nil {
		return err
	}
	if spec.Result == nil {
		return nil
	}
	if _, err := spec.Result.Decode(raw); err != nil {
		return fmt.Errorf("%w: %w", errInvalidResult, err)
	}
	return nil
}

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
