package runtime

// Refused calls: every tool call the runtime answers with an error instead
// of executing it is a Refusal, recorded with the run (RunOutput.Refusals,
// RunState.Refusals), as an event on the step's span, as a count of the
// MetricToolRefused metric by reason and as a log record. The model reads
// the same error result it always did; a Refusal is what the application
// and its operators see.
//
// Telemetry and records name only what the run may use: a call refused
// because policy hides its tool, or because no tool has its name, is
// counted by reason and never named.

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// RefusalReason says why the runtime refused a tool call.
type RefusalReason string

// Refusal reasons.
const (
	// RefusedNotDiscovered: a deferred tool called before a discovery
	// result of the run returned it.
	RefusedNotDiscovered RefusalReason = "not_discovered"
	// RefusedChanged: a deferred tool whose definition changed since the
	// run discovered it.
	RefusedChanged RefusalReason = "changed"
	// RefusedHidden: a tool the run's policy does not permit. Its name is
	// never recorded.
	RefusedHidden RefusalReason = "hidden"
	// RefusedUnknown: no tool of the step's catalog has the name. The name
	// is never recorded.
	RefusedUnknown RefusalReason = "unknown"
	// RefusedDiscoveryTool: the discovery tool called as a tool.
	RefusedDiscoveryTool RefusalReason = "discovery_tool"
	// RefusedInvalidArguments: arguments that are not JSON or break the
	// tool's payload schema.
	RefusedInvalidArguments RefusalReason = "invalid_arguments"
	// RefusedMaxToolCalls: a call over the run's MaxToolCalls cap.
	RefusedMaxToolCalls RefusalReason = "max_tool_calls"
	// RefusedMaxDepth: an agent used as a tool whose child run would nest
	// deeper than the run's MaxDepth.
	RefusedMaxDepth RefusalReason = "max_depth"
	// RefusedRunEnded: a call left when the run's context ended (its time
	// cap or the caller's cancellation).
	RefusedRunEnded RefusalReason = "run_ended"
)

// names reports whether a refusal of this reason may name its tool: only a
// tool the run may use is named.
func (r RefusalReason) names() bool { return r != RefusedHidden && r != RefusedUnknown }

// Refusal is a tool call the runtime refused: answered with an error
// result, never executed.
type Refusal struct {
	// CallID is the model's id of the call.
	CallID string `json:"call_id"`
	// Step is the planning step, counted over the run's invocations, of
	// the call.
	Step int `json:"step"`
	// Reason says why the call was refused.
	Reason RefusalReason `json:"reason"`
	// Name is the name the model called the tool by; empty when Reason is
	// RefusedHidden or RefusedUnknown.
	Name string `json:"name,omitempty"`
}

// MetricToolRefused counts refused tool calls, by
// goa_discovery.tool.refusal_reason (and gen_ai.agent.name).
const MetricToolRefused = "goa_discovery.tool.refused"

// EventToolRefused names the span event of a refused call on its step's
// span.
const EventToolRefused = "goa_discovery.tool.refused"

const attrRefusalReason = attribute.Key("goa_discovery.tool.refusal_reason")

// newRefusal returns the refusal of a call, named only when its reason
// allows.
func newRefusal(callID, name string, step int, reason RefusalReason) Refusal {
	f := Refusal{CallID: callID, Step: step, Reason: reason}
	if reason.names() {
		f.Name = name
	}
	return f
}

// refused records a step's refusals as span events on the step's
// span (the span of ctx), metric counts and log records.
func (o *observer) refused(ctx context.Context, r *run, refusals []Refusal) {
	if len(refusals) == 0 {
		return
	}
	span := trace.SpanFromContext(ctx)
	rec := span.IsRecording()
	agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
	count := o.toolRefused.Enabled(ctx)
	logs := o.log.Enabled(ctx, slog.LevelWarn)
	for _, f := range refusals {
		if rec {
			attrs := []attribute.KeyValue{attrRefusalReason.String(string(f.Reason)), semconv.GenAIToolCallID(f.CallID)}
			if f.Name != "" {
				attrs = append(attrs, semconv.GenAIToolName(f.Name))
			}
			span.AddEvent(EventToolRefused, trace.WithAttributes(attrs...))
		}
		if count {
			o.toolRefused.Add(ctx, 1, metric.WithAttributes(agentAttr, attrRefusalReason.String(string(f.Reason))))
		}
		if logs {
			attrs := []slog.Attr{slog.String("run", r.id), slog.String("agent", r.agent.reg.Name), slog.Int("step", f.Step),
				slog.String("call", f.CallID), slog.String("reason", string(f.Reason))}
			if f.Name != "" {
				attrs = append(attrs, slog.String("tool", f.Name))
			}
			o.log.LogAttrs(ctx, slog.LevelWarn, "tool call refused", attrs...)
		}
	}
}
