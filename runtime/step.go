package runtime

// A planning step, top-down. The run loop (run.go) takes one step at a
// time; a step
//
//  1. plans through the engine's Steps.PlanStep (steps.go), which runs
//     step.plan here or, for a durable engine, on a worker: resolve the
//     catalog, declare the tools, call the planner, admit each tool call,
//     answer each discovery call, all from the step's one catalog;
//  2. executes each admitted call that the run's caps leave, through
//     Steps.ExecuteCall, which runs step.execute here or on a worker (a
//     call of an agent used as a tool runs its child run with
//     Runtime.Drive, from the RunSpec that callRequest builds);
//  3. records what it added to the history (run.persist).
//
// Each phase opens its span inline (observation.go).
//
// A call is admitted when its tool is in the step's catalog, permitted by
// the run's policy, already discovered (for a deferred tool) under the
// definition the catalog still has, and its arguments pass the payload
// codec of the tool's executable contract (see payloadSpec). Anything else
// is answered with an error result and never executed. An admitted call is
// bound to a CallRecord at admission: its PlannedCall.
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
)

// step is one planning step of a run.
type step struct {
	r      *run
	number int  // 1-based, counted over the run's invocations
	counts bool // its catalog was resolved here: the step counts

	// what executing the step's calls gave
	stop     StopReason
	executed []CallRecord
	refusals []Refusal
}

// run takes the step and returns a stop reason when the run stops.
func (s *step) run(ctx context.Context) (stop StopReason, err error) {
	r := s.r
	ctx, span := r.rt.observer().startStep(ctx, r, s.number)
	defer func() { endStep(span, stop, err) }()
	plan, err := r.driver.PlanStep(ctx, s.request(), s.plan)
	if s.counts || plan != nil {
		r.steps++
	}
	if err != nil {
		if ctx.Err() != nil {
			return r.ended(ctx)
		}
		return "", err
	}
	r.usage = r.usage.Add(plan.Response.Usage)
	msg := plan.Response.Message
	added := []model.Message{msg}
	if len(plan.Discovery) > 0 {
		added = append(added, model.DiscoveryMessage(plan.Discovery...))
	}
	if !msg.HasPendingCalls() {
		// Hosted discovery calls (the provider searched and answered in
		// the same message) are answered too, so that the history records
		// what the provider found; they do not make the run go on.
		if err := r.extend(added...); err != nil {
			return "", s.errorf("%w", err)
		}
		return StopCompleted, r.persist(ctx, added, nil, nil, RunStopped, StopCompleted)
	}
	toolCalls := msg.ToolCalls()
	if err := s.checkPlanned(toolCalls, plan.Calls); err != nil {
		return "", err
	}
	if len(toolCalls) > 0 {
		results, err := s.executeAll(ctx, toolCalls, plan.Calls)
		if err != nil {
			return "", err
		}
		added = append(added, model.ToolMessage(results...))
	}
	return s.record(ctx, added)
}

// record adds what the step added to the run and records it with the run.
func (s *step) record(ctx context.Context, added []model.Message) (StopReason, error) {
	r := s.r
	if err := r.extend(added...); err != nil {
		return "", s.errorf("%w", err)
	}
	r.calls = append(r.calls, s.executed...)
	r.refusals = append(r.refusals, s.refusals...)
	r.rt.observer().refused(ctx, r, s.refusals)
	stop := s.stop
	if stop == "" && ctx.Err() != nil {
		var err error
		if stop, err = r.ended(ctx); err != nil {
			_ = r.persist(ctx, added, s.executed, s.refusals, RunFailed, "")
			return "", err
		}
	}
	status := RunActive
	if stop != "" {
		status = RunStopped
	}
	return stop, r.persist(ctx, added, s.executed, s.refusals, status, stop)
}

// plan runs the side effects of planning and the decisions that need the
// step's catalog: resolve the catalog, declare, call the planner, admit
// the tool calls, answer the discovery calls.
func (s *step) plan(ctx context.Context) (*StepPlan, error) {
	cat, err := s.resolve(ctx)
	if err != nil {
		return nil, s.errorf("%w", err)
	}
	s.counts = true
	decl, err := s.declare(cat, capabilities(s.r.agent.reg.Planner))
	if err != nil {
		return nil, s.errorf("%w", err)
	}
	resp, err := s.callPlanner(ctx, cat, decl.Tools)
	if err != nil {
		return nil, err
	}
	plan := &StepPlan{Response: *resp}
	msg := resp.Message
	if msg.HasPendingCalls() {
		// Admission sees only what earlier steps discovered: a tool
		// discovered by this very message cannot be called by it.
		if plan.Calls, err = s.admitAll(cat, msg.ToolCalls()); err != nil {
			return nil, err
		}
	}
	if plan.Discovery, err = s.answerAll(ctx, cat, msg.DiscoveryCalls()); err != nil {
		return nil, err
	}
	return plan, nil
}

// resolve resolves the step's catalog.
func (s *step) resolve(ctx context.Context) (*catalog, error) {
	r := s.r
	ctx, obs := r.rt.observer().startCatalog(ctx)
	cat, err := r.rt.stepCatalog(ctx, r.agent, r.policy.labels)
	obs.endCatalog(r, cat, err)
	return cat, err
}

// declare returns what the step's request declares for a model with caps,
// as package discovery decides it: the permitted immediate tools, the
// discovery tool when the agent has deferred tools, then the tools the
// run's history discovered (its ledger), by latest snapshot in order of
// first discovery, declared non-strict beyond the model's strict-tool
// limits. A failure (an immediate tool outside those limits) is a
// *model.ValidationError: no request could declare those tools. Steps that
// share a catalog and a model, with no tool discovered or changed in
// between, share one decision, so a step costs in proportion to the tools
// it declares, not to the conversation or the catalog.
func (s *step) declare(cat *catalog, caps model.Capabilities) (*discovery.Declarations, error) {
	r := s.r
	key := declarationsKey{cat: cat, caps: caps, discovered: r.ledger.Revision()}
	if r.decl != nil && r.declKey == key {
		return r.decl, nil
	}
	if r.immCatalog != cat {
		r.immDefs = r.immDefs[:0]
		for _, t := range cat.immediate {
			if r.policy.permits(t) {
				r.immDefs = append(r.immDefs, t.definition())
			}
		}
		r.immCatalog = cat
	}
	settings := r.discoverySettings()
	d, err := r.ledger.Declare(r.immDefs, discovery.Options{
		Enabled:     settings.Enabled,
		Description: settings.Description,
		Strict:      caps.Strict,
		Permitted:   stepPermits{run: r, cat: cat},
	})
	if err != nil {
		return nil, fmt.Errorf("declare tools: %w", err)
	}
	r.decl, r.declKey = d, key
	return d, nil
}

// callPlanner asks the agent's planner for the step's response.
func (s *step) callPlanner(ctx context.Context, cat *catalog, declared []model.ToolDefinition) (*model.Response, error) {
	r := s.r
	in := &PlanInput{
		Messages: r.messages[:len(r.messages):len(r.messages)],
		Agent:    &stepContext{run: r, cat: cat, step: s.number, tools: declared},
	}
	ctx, obs := r.rt.observer().startChat(ctx, r, declared)
	resp, err := r.agent.reg.Planner.Plan(ctx, in)
	obs.endChat(r, resp, err)
	switch {
	case err != nil:
	case resp == nil:
		err = errors.New("no response")
	default:
		err = resp.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPlanner, s.errorf("%w", err))
	}
	return resp, nil
}

// admitAll decides on each tool call of the step's message.
func (s *step) admitAll(cat *catalog, calls []model.ToolCall) ([]PlannedCall, error) {
	planned := make([]PlannedCall, len(calls))
	for i, c := range calls {
		var err error
		if planned[i], err = s.admit(cat, c); err != nil {
			return nil, s.errorf("call %q: %w", c.ID, err)
		}
	}
	return planned, nil
}

// admit decides on one call. An error (a tool record whose contract does
// not compile) fails the step.
func (s *step) admit(cat *catalog, call model.ToolCall) (PlannedCall, error) {
	r := s.r
	refuse := func(reason RefusalReason, format string, args ...any) (PlannedCall, error) {
		return PlannedCall{Refusal: fmt.Sprintf(format, args...), Reason: reason}, nil
	}
	if call.Name == DiscoveryToolName {
		return refuse(RefusedDiscoveryTool, "%q finds tools; it is not called as a tool here.", call.Name)
	}
	// An unknown tool and a hidden one get the same answer: the model
	// learns nothing of what the policy hides.
	t := cat.byName[call.Name]
	if t == nil {
		return refuse(RefusedUnknown, "Tool %q is not available in this run.", call.Name)
	}
	if !r.policy.permits(t) {
		return refuse(RefusedHidden, "Tool %q is not available in this run.", call.Name)
	}
	if t.deferred {
		snap, ok := r.ledger.Snapshot(call.Name)
		switch {
		case !ok:
			return refuse(RefusedNotDiscovered, "Tool %q has not been discovered yet. Call %s with names [%q] first, then call the tool.", call.Name, DiscoveryToolName, call.Name)
		case !discovery.SameSnapshot(snap, t.snapshot):
			return refuse(RefusedChanged, "Tool %q changed since it was discovered. Call %s with names [%q] again, then call the tool.", call.Name, DiscoveryToolName, call.Name)
		}
	}
	if len(call.Arguments) == 0 {
		return refuse(RefusedInvalidArguments, "The arguments of %q are not valid JSON.", call.Name)
	}
	spec, err := t.payloadSpec()
	if err != nil {
		return PlannedCall{}, err
	}
	payload, err := spec.Payload.Decode(call.Arguments)
	if err != nil {
		return refuse(RefusedInvalidArguments, "Invalid arguments for %q: %v", call.Name, err)
	}
	rec := &CallRecord{
		CallID:     call.ID,
		Step:       s.number,
		Name:       call.Name,
		Tool:       t.id,
		Source:     t.source,
		Definition: *t.schema,
		Partner:    t.partner,
		Arguments:  call.Arguments,
	}
	return PlannedCall{Record: rec, tool: t, payload: payload}, nil
}

// answerAll answers the discovery calls of the step's message.
func (s *step) answerAll(ctx context.Context, cat *catalog, dcs []model.DiscoveryCall) ([]model.DiscoveryResult, error) {
	if len(dcs) == 0 {
		return nil, nil
	}
	results := make([]model.DiscoveryResult, len(dcs))
	for i, dc := range dcs {
		res, err := s.answer(ctx, cat, dc)
		if err != nil {
			return nil, s.errorf("discovery call %q: %w", dc.ID, err)
		}
		results[i] = res
	}
	return results, nil
}

// answer answers one discovery call from the deferred tools the run may
// use (catalog.permittedFor).
func (s *step) answer(ctx context.Context, cat *catalog, call model.DiscoveryCall) (model.DiscoveryResult, error) {
	r := s.r
	obs := r.rt.observer().startDiscovery(ctx)
	var res model.DiscoveryResult
	dc, err := cat.permittedFor(r.policy)
	if err == nil {
		limit := r.agent.reg.DiscoveryLimit
		if limit == 0 {
			limit = DefaultDiscoveryLimit
		}
		res, err = dc.Answer(call, limit)
	}
	obs.endDiscovery(r, call, res, err)
	return res, err
}

// checkPlanned checks that a plan decided on each tool call once: a plan
// that ran elsewhere comes back as data.
func (s *step) checkPlanned(calls []model.ToolCall, planned []PlannedCall) error {
	if len(planned) != len(calls) {
		return s.errorf("%d admissions for %d tool calls", len(planned), len(calls))
	}
	for i, p := range planned {
		if p.Refusal == "" && p.Record == nil {
			return s.errorf("call %q neither admitted nor refused", calls[i].ID)
		}
	}
	return nil
}

// executeAll answers each tool call of the step's message: a refused call,
// or one the run's caps or end leave, with an error result; an admitted
// call with what executing it gave.
func (s *step) executeAll(ctx context.Context, calls []model.ToolCall, planned []PlannedCall) ([]model.ToolResult, error) {
	r := s.r
	results := make([]model.ToolResult, len(calls))
	for i := range planned {
		p, call := &planned[i], calls[i]
		refuse := func(reason RefusalReason, text string) {
			results[i] = errorResult(call, text)
			s.refusals = append(s.refusals, newRefusal(call.ID, call.Name, s.number, reason))
		}
		switch {
		case p.Refusal != "":
			refuse(p.Reason, p.Refusal)
		case ctx.Err() != nil:
			refuse(RefusedRunEnded, "Not executed: the run ended before this call.")
		case r.executed >= r.caps.MaxToolCalls:
			s.stop = StopMaxToolCalls
			refuse(RefusedMaxToolCalls, fmt.Sprintf("Not executed: the run's limit of %d tool calls is reached.", r.caps.MaxToolCalls))
		case p.Record.Source.Kind == SourceAgent && r.depth >= r.maxDepth:
			s.stop = StopMaxDepth
			refuse(RefusedMaxDepth, fmt.Sprintf("Not executed: agents used as tools nest at most %d deep here.", r.maxDepth))
		default:
			req, err := s.callRequest(ctx, p)
			if err != nil {
				return nil, s.errorf("call %q: %w", call.ID, err)
			}
			res, err := r.driver.ExecuteCall(ctx, req, func(ctx context.Context) (*CallResult, error) { return s.execute(ctx, req, p) })
			if err != nil {
				return nil, s.errorf("call %q: %w", call.ID, err)
			}
			results[i] = res.Result
			if res.Ran {
				r.executed++
				s.executed = append(s.executed, res.Record)
			}
		}
	}
	return results, nil
}

// execute executes an admitted call in its span; a child run nests under
// it.
func (s *step) execute(ctx context.Context, req *CallRequest, p *PlannedCall) (*CallResult, error) {
	ctx, obs := s.r.rt.observer().startTool(ctx, s.r, p.Record)
	res, err := s.call(ctx, req, p)
	obs.endTool(s.r, p.Record, res, err)
	return res, err
}

// call confirms and runs an admitted call. Its result reports whether the
// tool ran; an error ends the run.
func (s *step) call(ctx context.Context, req *CallRequest, p *PlannedCall) (*CallResult, error) {
	r, rec := s.r, *p.Record
	call := rec.toolCall()
	ok, res, err := r.rt.confirm(ctx, r.id, &rec)
	if err != nil {
		return nil, err
	}
	if !ok {
		return &CallResult{Result: res, Record: rec}, nil
	}
	var content string
	switch {
	case p.tool.registry != nil: // a registry tool, or a dynamic MCP source's
		var raw json.RawMessage
		raw, err = p.tool.registry.CallTool(ctx, &RegistryCall{
			RunID: r.id, CallID: rec.CallID, Step: rec.Step, Tool: rec.Tool, Token: rec.Source.Token, Arguments: rec.Arguments,
		})
		if err == nil {
			err = checkResult(p.tool, raw)
		}
		content = string(raw)
	case rec.Source.Kind == SourceAgent:
		// The child run, from the spec a durable engine runs as a child
		// workflow.
		out, err := r.rt.Drive(ctx, r.driver, req.Child)
		return AgentCallResult(req, out, err), nil
	default:
		content, err = s.executeLocal(ctx, p)
	}
	if err != nil {
		forModel, forRecord := failureTexts(err)
		rec.Error = forRecord
		return &CallResult{Result: errorResult(call, forModel), Ran: true, Record: rec}, nil
	}
	return &CallResult{Result: model.ToolResult{CallID: call.ID, Name: call.Name, Content: content}, Ran: true, Record: rec}, nil
}

// executeLocal runs a call with its toolset's executor and encodes the
// result.
func (s *step) executeLocal(ctx context.Context, p *PlannedCall) (string, error) {
	r, ts, rec := s.r, p.tool.local, p.Record
	v, err := ts.executor.Execute(ctx, &ToolInvocation{
		RunID:     r.id,
		CallID:    rec.CallID,
		Step:      rec.Step,
		Tool:      rec.Tool,
		Arguments: rec.Arguments,
		Payload:   p.payload,
		Labels:    maps.Clone(r.policy.labels),
	})
	if err != nil {
		return "", err
	}
	return encodeResult(ts.specs[rec.Tool], v)
}

// request returns the step as data, for Steps.PlanStep.
func (s *step) request() *StepRequest {
	r := s.r
	return &StepRequest{
		RunID: r.id, Agent: r.agent.reg.Name, Step: s.number,
		Labels: r.policy.labels, Policy: r.runPolicy, Above: r.aboveNames,
		Messages: r.messages[:len(r.messages):len(r.messages)],
	}
}

// callRequest returns an admitted call as data, for Steps.ExecuteCall,
// with the spec of its child run when the call runs an agent: the one
// place a child run's depth, policy and caps are set.
func (s *step) callRequest(ctx context.Context, p *PlannedCall) (*CallRequest, error) {
	r := s.r
	req := &CallRequest{RunID: r.id, Agent: r.agent.reg.Name, Labels: r.policy.labels, Record: *p.Record}
	if p.Record.Source.Kind != SourceAgent {
		return req, nil
	}
	child, err := r.rt.agentNamed(p.Record.Source.Agent)
	if err != nil {
		return nil, err
	}
	request, err := childInput(r.rt, p)
	if err != nil {
		return nil, err
	}
	depth := r.depth + 1
	spec := &RunSpec{
		State:    RunState{ID: childRunID(r.id, p.Record.Step, p.Record.CallID), Agent: child.reg.Name, ParentID: r.id, Labels: r.policy.labels, Status: RunActive},
		Input:    []model.Message{model.UserMessage(request)},
		Create:   true,
		Caps:     child.caps,
		Policy:   r.runPolicy,
		Above:    append([]string{r.agent.reg.Name}, r.aboveNames...),
		Depth:    depth,
		MaxDepth: min(r.maxDepth, depth+child.caps.MaxDepth),
	}
	if d, ok := ctx.Deadline(); ok {
		spec.Deadline = d
	}
	req.Child = spec
	return req, nil
}

// errorf returns an error of the step, naming its run and number.
func (s *step) errorf(format string, args ...any) error {
	return fmt.Errorf("run %q step %d: "+format, append([]any{s.r.id, s.number}, args...)...)
}
