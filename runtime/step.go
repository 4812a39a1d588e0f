package runtime

import (
	"context"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// step runs one planning step: plan (resolve the catalog, plan, admit the
// tool calls, answer discovery calls), execute, record. It returns a stop
// reason when the run stops.
func (r *run) step(ctx context.Context) (StopReason, error) {
	number := r.state.Steps + r.steps + 1
	var counted bool
	plan, err := r.driver.PlanStep(ctx, r.stepRequest(number), func(ctx context.Context) (*StepPlan, error) {
		return r.plan(ctx, number, &counted)
	})
	if counted || plan != nil {
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
	if !msg.HasPendingCalls() {
		// Hosted discovery calls (the provider searched and answered in the
		// same message) are answered too, so the history records what the
		// provider found; they do not make the run go on.
		if len(plan.Discovery) > 0 {
			added = append(added, model.DiscoveryMessage(plan.Discovery...))
		}
		if err := r.extend(added...); err != nil {
			return "", fmt.Errorf("run %q step %d: %w", r.id, number, err)
		}
		return StopCompleted, r.persist(ctx, added, nil, nil, RunStopped, StopCompleted)
	}
	admissions := plan.admissions
	if admissions == nil {
		// The step ran elsewhere: its decisions come as records.
		toolCalls := msg.ToolCalls()
		if len(plan.Calls) != len(toolCalls) {
			return "", fmt.Errorf("run %q step %d: %d admissions for %d tool calls", r.id, number, len(plan.Calls), len(toolCalls))
		}
		admissions = make([]admission, len(toolCalls))
		for i, c := range toolCalls {
			admissions[i] = admission{call: c, refusal: plan.Calls[i].Refusal, reason: plan.Calls[i].Reason}
			if rec := plan.Calls[i].Record; rec != nil && admissions[i].refusal == "" {
				admissions[i].record = *rec
			} else if admissions[i].refusal == "" {
				return "", fmt.Errorf("run %q step %d: call %q neither admitted nor refused", r.id, number, c.ID)
			}
		}
	}
	if len(plan.Discovery) > 0 {
		added = append(added, model.DiscoveryMessage(plan.Discovery...))
	}

	var stop StopReason
	var executed []CallRecord
	var refusals []Refusal
	if len(admissions) > 0 {
		results := make([]model.ToolResult, len(admissions))
		for i := range admissions {
			a := &admissions[i]
			refuse := func(reason RefusalReason, text string) {
				results[i] = errorResult(a.call, text)
				refusals = append(refusals, newRefusal(a.call.ID, a.call.Name, number, reason))
			}
			switch {
			case a.refusal != "":
				refuse(a.reason, a.refusal)
			case ctx.Err() != nil:
				refuse(RefusedRunEnded, "Not executed: the run ended before this call.")
			case r.executed >= r.caps.MaxToolCalls:
				stop = StopMaxToolCalls
				refuse(RefusedMaxToolCalls, fmt.Sprintf("Not executed: the run's limit of %d tool calls is reached.", r.caps.MaxToolCalls))
			case a.record.Source.Kind == SourceAgent && r.depth >= r.maxDepth:
				stop = StopMaxDepth
				refuse(RefusedMaxDepth, fmt.Sprintf("Not executed: agents used as tools nest at most %d deep here.", r.maxDepth))
			default:
				req, err := r.callRequest(ctx, a)
				if err != nil {
					return "", fmt.Errorf("run %q step %d: call %q: %w", r.id, number, a.call.ID, err)
				}
				res, err := r.driver.ExecuteCall(ctx, req, func(ctx context.Context) (*CallResult, error) { return r.executeStep(ctx, a) })
				if err != nil {
					return "", fmt.Errorf("run %q step %d: call %q: %w", r.id, number, a.call.ID, err)
				}
				results[i] = res.Result
				if res.Ran {
					r.executed++
					executed = append(executed, res.Record)
				}
			}
		}
		added = append(added, model.ToolMessage(results...))
	}
	if err := r.extend(added...); err != nil {
		return "", fmt.Errorf("run %q step %d: %w", r.id, number, err)
	}
	r.calls = append(r.calls, executed...)
	r.refusals = append(r.refusals, refusals...)
	r.observeRefusals(ctx, refusals)
	if stop == "" && ctx.Err() != nil {
		stop, err = r.ended(ctx)
		if err != nil {
			_ = r.persist(ctx, added, executed, refusals, RunFailed, "")
			return "", err
		}
	}
	status := RunActive
	if stop != "" {
		status = RunStopped
	}
	return stop, r.persist(ctx, added, executed, refusals, status, stop)
}

// plan runs the side effects of planning step number and the decisions
// that need its catalog: resolve the catalog, declare, plan, admit the tool
// calls, answer the discovery calls. counted is set once the step counts
// (its catalog resolved).
func (r *run) plan(ctx context.Context, number int, counted *bool) (*StepPlan, error) {
	cat, err := r.observedCatalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("run %q step %d: %w", r.id, number, err)
	}
	*counted = true
	decl, err := r.declarations(cat, capabilities(r.agent.reg.Planner))
	if err != nil {
		return nil, fmt.Errorf("run %q step %d: %w", r.id, number, err)
	}
	resp, err := r.observedPlan(ctx, &PlanInput{
		Messages: r.messages[:len(r.messages):len(r.messages)],
		Agent:    &stepContext{run: r, cat: cat, step: number, tools: decl.Tools},
	})
	if err != nil {
		return nil, fmt.Errorf("%w: run %q step %d: %w", ErrPlanner, r.id, number, err)
	}
	if resp == nil {
		return nil, fmt.Errorf("%w: run %q step %d: no response", ErrPlanner, r.id, number)
	}
	if err := resp.Validate(); err != nil {
		return nil, fmt.Errorf("%w: run %q step %d: %w", ErrPlanner, r.id, number, err)
	}
	plan := &StepPlan{Response: *resp}
	msg := resp.Message
	if !msg.HasPendingCalls() {
		// Hosted discovery calls (the provider searched and answered in the
		// same message) are answered too, so the history records what the
		// provider found; they do not make the run go on.
		if dcs := msg.DiscoveryCalls(); len(dcs) > 0 {
			if plan.Discovery, err = r.answerAll(ctx, cat, dcs, number); err != nil {
				return nil, err
			}
		}
		return plan, nil
	}

	// Admission sees only what earlier steps discovered: a tool discovered
	// by this very message cannot be called by it.
	toolCalls := msg.ToolCalls()
	plan.admissions = make([]admission, len(toolCalls))
	plan.Calls = make([]PlannedCall, len(toolCalls))
	for i, c := range toolCalls {
		a, err := r.admit(cat, c, number)
		if err != nil {
			return nil, fmt.Errorf("run %q step %d: call %q: %w", r.id, number, c.ID, err)
		}
		plan.admissions[i], plan.Calls[i].Refusal, plan.Calls[i].Reason = a, a.refusal, a.reason
		if a.refusal == "" {
			plan.Calls[i].Record = &plan.admissions[i].record
		}
	}

	if dcs := msg.DiscoveryCalls(); len(dcs) > 0 {
		if plan.Discovery, err = r.answerAll(ctx, cat, dcs, number); err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// answerAll answers the discovery calls of step number's message.
func (r *run) answerAll(ctx context.Context, cat *catalog, dcs []model.DiscoveryCall, number int) ([]model.DiscoveryResult, error) {
	results := make([]model.DiscoveryResult, len(dcs))
	for i, dc := range dcs {
		res, err := r.observedAnswer(ctx, cat, dc)
		if err != nil {
			return nil, fmt.Errorf("run %q step %d: discovery call %q: %w", r.id, number, dc.ID, err)
		}
		results[i] = res
	}
	return results, nil
}

// extend appends msgs to the run's history and to the ledger of what it
// discovered. A discovery result that no history may hold is an error and
// extends nothing.
func (r *run) extend(msgs ...model.Message) error {
	if err := r.ledger.Append(msgs...); err != nil {
		return err
	}
	r.messages = append(r.messages, msgs...)
	return nil
}

// errorResult answers a call with an error the model reads.
func errorResult(call model.ToolCall, text string) model.ToolResult {
	return model.ToolResult{CallID: call.ID, Name: call.Name, Content: text, IsError: true}
}
