package runtime

import (
	"context"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// step runs one planning step: resolve the catalog, plan, answer discovery
// calls, admit and execute tool calls, record. It returns a stop reason when
// the run stops.
func (r *run) step(ctx context.Context) (StopReason, error) {
	cat, err := r.observedCatalog(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return r.ended(ctx)
		}
		return "", fmt.Errorf("run %q step %d: %w", r.id, r.state.Steps+r.steps+1, err)
	}
	r.steps++
	number := r.state.Steps + r.steps
	decl, err := r.declarations(cat, capabilities(r.agent.reg.Planner))
	if err != nil {
		return "", fmt.Errorf("run %q step %d: %w", r.id, number, err)
	}
	resp, err := r.observedPlan(ctx, &PlanInput{
		Messages: r.messages[:len(r.messages):len(r.messages)],
		Agent:    &stepContext{run: r, cat: cat, step: number, tools: decl.Tools},
	})
	if err != nil {
		if ctx.Err() != nil {
			return r.ended(ctx)
		}
		return "", fmt.Errorf("%w: run %q step %d: %w", ErrPlanner, r.id, number, err)
	}
	if resp == nil {
		return "", fmt.Errorf("%w: run %q step %d: no response", ErrPlanner, r.id, number)
	}
	if err := resp.Validate(); err != nil {
		return "", fmt.Errorf("%w: run %q step %d: %w", ErrPlanner, r.id, number, err)
	}
	r.usage = r.usage.Add(resp.Usage)
	msg := resp.Message
	added := []model.Message{msg}
	if !msg.HasPendingCalls() {
		// Hosted discovery calls (the provider searched and answered in the
		// same message) are answered too, so the history records what the
		// provider found; they do not make the run go on.
		if dcs := msg.DiscoveryCalls(); len(dcs) > 0 {
			results, err := r.answerAll(ctx, cat, dcs, number)
			if err != nil {
				return "", err
			}
			added = append(added, model.DiscoveryMessage(results...))
		}
		if err := r.extend(added...); err != nil {
			return "", fmt.Errorf("run %q step %d: %w", r.id, number, err)
		}
		return StopCompleted, r.persist(ctx, added, nil, RunStopped, StopCompleted)
	}

	// Admission sees only what earlier steps discovered: a tool discovered
	// by this very message cannot be called by it.
	toolCalls := msg.ToolCalls()
	admissions := make([]admission, len(toolCalls))
	for i, c := range toolCalls {
		if admissions[i], err = r.admit(cat, c, number); err != nil {
			return "", fmt.Errorf("run %q step %d: call %q: %w", r.id, number, c.ID, err)
		}
	}

	if dcs := msg.DiscoveryCalls(); len(dcs) > 0 {
		results, err := r.answerAll(ctx, cat, dcs, number)
		if err != nil {
			return "", err
		}
		added = append(added, model.DiscoveryMessage(results...))
	}

	var stop StopReason
	var executed []CallRecord
	if len(toolCalls) > 0 {
		results := make([]model.ToolResult, len(toolCalls))
		for i := range admissions {
			a := &admissions[i]
			switch {
			case a.refusal != "":
				results[i] = errorResult(a.call, a.refusal)
			case ctx.Err() != nil:
				results[i] = errorResult(a.call, "Not executed: the run ended before this call.")
			case r.executed >= r.caps.MaxToolCalls:
				stop = StopMaxToolCalls
				results[i] = errorResult(a.call, fmt.Sprintf("Not executed: the run's limit of %d tool calls is reached.", r.caps.MaxToolCalls))
			case a.tool.source.Kind == SourceAgent && r.depth >= r.maxDepth:
				stop = StopMaxDepth
				results[i] = errorResult(a.call, fmt.Sprintf("Not executed: agents used as tools nest at most %d deep here.", r.maxDepth))
			default:
				res, ran, err := r.observedExecute(ctx, a)
				if err != nil {
					return "", fmt.Errorf("run %q step %d: call %q: %w", r.id, number, a.call.ID, err)
				}
				results[i] = res
				if ran {
					r.executed++
					executed = append(executed, a.record)
				}
			}
		}
		added = append(added, model.ToolMessage(results...))
	}
	if err := r.extend(added...); err != nil {
		return "", fmt.Errorf("run %q step %d: %w", r.id, number, err)
	}
	r.calls = append(r.calls, executed...)
	if stop == "" && ctx.Err() != nil {
		stop, err = r.ended(ctx)
		if err != nil {
			_ = r.persist(ctx, added, executed, RunFailed, "")
			return "", err
		}
	}
	status := RunActive
	if stop != "" {
		status = RunStopped
	}
	return stop, r.persist(ctx, added, executed, status, stop)
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
