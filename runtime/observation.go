package runtime

// The phases of a run, observed inline where they run (step.go, run.go,
// resolve.go): a start method of the observer opens a phase's span and
// returns an observation, and the phase's end method records its outcome
// and ends the span. See observe.go for what telemetry may name.

import (
	"context"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Without a provider or logger installed, the hooks below cost little: span
// attributes are set only on recording spans, measurements only on enabled
// instruments, log attributes only for an enabled level.

// observation is one phase of a run in its span.
type observation struct {
	o     *observer
	ctx   context.Context
	span  trace.Span
	rec   bool // the span records
	start time.Time
}

// begin opens the span of a phase.
func (o *observer) begin(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, observation) {
	ctx, span := o.tracer.Start(ctx, name, opts...)
	return ctx, observation{o: o, ctx: ctx, span: span, rec: span.IsRecording()}
}

// runObservation is the span of one invocation of a run.
type runObservation struct {
	observation
	r *run
}

// startRun starts the span of a run's invocation. A child run's span is a
// child of the tool execution that started it.
func (o *observer) startRun(ctx context.Context, r *run) (context.Context, runObservation) {
	ctx, obs := o.begin(ctx, "invoke_agent "+r.agent.reg.Name)
	if obs.rec {
		obs.span.SetAttributes(semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName(r.agent.reg.Name), semconv.GenAIConversationID(r.id))
		if r.parent != "" {
			obs.span.SetAttributes(attrRunParentID.String(r.parent))
		}
	}
	if o.log.Enabled(ctx, slog.LevelInfo) {
		o.log.LogAttrs(ctx, slog.LevelInfo, "run started", slog.String("run", r.id), slog.String("agent", r.agent.reg.Name), slog.String("parent", r.parent))
	}
	return ctx, runObservation{observation: obs, r: r}
}

// end ends the run's span with its outcome.
func (ro runObservation) end(stop StopReason, err error) {
	r, o := ro.r, ro.o
	defer ro.span.End()
	if ro.rec {
		ro.span.SetAttributes(attrRunStop.String(string(stop)), attrRunSteps.Int(r.steps), attrRunToolCalls.Int(r.executed),
			semconv.GenAIUsageInputTokens(r.usage.InputTokens), semconv.GenAIUsageOutputTokens(r.usage.OutputTokens))
		if err != nil {
			ro.span.SetStatus(codes.Error, "run failed")
			ro.span.SetAttributes(semconv.ErrorTypeOther)
		}
	}
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelError
	}
	if !o.log.Enabled(ro.ctx, level) {
		return
	}
	logAttrs := []slog.Attr{slog.String("run", r.id), slog.String("agent", r.agent.reg.Name), slog.String("stop", string(stop)), slog.Int("steps", r.steps), slog.Int("tool_calls", r.executed)}
	if err != nil {
		logAttrs = append(logAttrs, slog.String("error", err.Error()))
	}
	o.log.LogAttrs(ro.ctx, level, "run ended", logAttrs...)
}

// startStep starts the span of planning step number.
func (o *observer) startStep(ctx context.Context, r *run, number int) (context.Context, trace.Span) {
	ctx, span := o.tracer.Start(ctx, "step")
	if span.IsRecording() {
		span.SetAttributes(semconv.GenAIAgentName(r.agent.reg.Name), attrStep.Int(number))
	}
	return ctx, span
}

// endStep ends a step's span with its outcome.
func endStep(span trace.Span, stop StopReason, err error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if err != nil {
		span.SetStatus(codes.Error, "step failed")
	}
	if stop != "" {
		span.SetAttributes(attrRunStop.String(string(stop)))
	}
}

// startCatalog starts the span of a step's catalog resolution.
func (o *observer) startCatalog(ctx context.Context) (context.Context, observation) {
	return o.begin(ctx, "resolve catalog")
}

// endCatalog ends the span of a step's catalog resolution, recording each
// MCP tool the catalog left out.
func (obs observation) endCatalog(r *run, cat *catalog, err error) {
	defer obs.span.End()
	if err == nil {
		obs.o.dropped(obs.ctx, obs.span, r, cat.dropped)
	}
	if obs.rec {
		obs.span.SetAttributes(semconv.GenAIAgentName(r.agent.reg.Name))
		if err != nil {
			obs.span.SetStatus(codes.Error, "catalog resolution failed")
		} else {
			obs.span.SetAttributes(attrCatalogTools.Int(len(cat.byName)))
		}
	}
}

// dropped records each MCP tool the step's catalog left out, naming its
// server and tool: a span event and a WARN log record.
func (o *observer) dropped(ctx context.Context, span trace.Span, r *run, dropped []droppedTool) {
	for _, d := range dropped {
		if span.IsRecording() {
			span.AddEvent("tool dropped", trace.WithAttributes(
				attribute.String("goa_discovery.mcp.server", d.source.Server),
				attribute.String("goa_discovery.tool", string(d.id)),
				attribute.String("goa_discovery.reason", d.reason)))
		}
		o.log.LogAttrs(ctx, slog.LevelWarn, "MCP tool left out of the catalog",
			slog.String("run", r.id), slog.String("agent", r.agent.reg.Name),
			slog.String("server", d.source.Server), slog.String("tool", string(d.id)), slog.String("reason", d.reason))
	}
}

// startChat starts the span of a planner call, named as the GenAI
// conventions name a chat call, with the step's declarations measured.
func (o *observer) startChat(ctx context.Context, r *run, declared []model.ToolDefinition) (context.Context, observation) {
	modelName := ""
	if mn, ok := r.agent.reg.Planner.(modelNamer); ok {
		modelName = mn.Model()
	}
	name := "chat"
	if modelName != "" {
		name = "chat " + modelName
	}
	ctx, obs := o.begin(ctx, name, trace.WithSpanKind(trace.SpanKindClient))
	measure := o.declaredTools.Enabled(ctx) || o.declaredBytes.Enabled(ctx)
	if !obs.rec && !measure {
		return ctx, obs
	}
	agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
	size := 0
	for _, d := range declared {
		size += len(d.Name) + len(d.Description) + len(d.Parameters)
	}
	if obs.rec {
		obs.span.SetAttributes(semconv.GenAIOperationNameChat, agentAttr, semconv.GenAIConversationID(r.id),
			attrDeclaredTools.Int(len(declared)), attrDeclaredBytes.Int(size))
		if modelName != "" {
			obs.span.SetAttributes(semconv.GenAIRequestModel(modelName))
		}
	}
	if measure {
		o.declaredTools.Record(ctx, int64(len(declared)), metric.WithAttributes(agentAttr))
		o.declaredBytes.Record(ctx, int64(size), metric.WithAttributes(agentAttr))
	}
	return ctx, obs
}

// endChat ends the span of a planner call with its response.
func (obs observation) endChat(r *run, resp *model.Response, err error) {
	defer obs.span.End()
	if err != nil {
		if obs.rec {
			obs.span.SetStatus(codes.Error, "planner failed")
			obs.span.SetAttributes(semconv.ErrorTypeOther)
		}
		return
	}
	if resp == nil {
		return
	}
	u := resp.Usage
	if obs.rec {
		obs.span.SetAttributes(semconv.GenAIResponseFinishReasons(string(resp.FinishReason)),
			semconv.GenAIUsageInputTokens(u.InputTokens), semconv.GenAIUsageOutputTokens(u.OutputTokens))
	}
	if o := obs.o; o.tokenUsage.Enabled(obs.ctx) {
		agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
		o.tokenUsage.Record(obs.ctx, int64(u.InputTokens), metric.WithAttributes(agentAttr, semconv.GenAIOperationNameChat, semconv.GenAITokenTypeInput))
		o.tokenUsage.Record(obs.ctx, int64(u.OutputTokens), metric.WithAttributes(agentAttr, semconv.GenAIOperationNameChat, semconv.GenAITokenTypeOutput))
	}
}

// startDiscovery starts the span of answering a discovery call.
func (o *observer) startDiscovery(ctx context.Context) observation {
	_, obs := o.begin(ctx, "discover tools")
	obs.start = time.Now()
	return obs
}

// endDiscovery ends the span of a discovery call with its answer and
// counts it.
func (obs observation) endDiscovery(r *run, dc model.DiscoveryCall, res model.DiscoveryResult, err error) {
	elapsed := time.Since(obs.start).Seconds()
	o, ctx, span := obs.o, obs.ctx, obs.span
	defer span.End()
	if err != nil {
		if obs.rec {
			span.SetStatus(codes.Error, "discovery failed")
		}
		return
	}
	mode := discoveryMode(dc)
	agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
	empty := len(res.Tools) == 0
	if o.discoveryCalls.Enabled(ctx) || o.discoveryLatency.Enabled(ctx) || o.discoveryEmpty.Enabled(ctx) {
		mattrs := metric.WithAttributes(agentAttr, attrDiscoveryMode.String(mode))
		o.discoveryCalls.Add(ctx, 1, mattrs)
		o.discoveryLatency.Record(ctx, elapsed, mattrs)
		if empty {
			o.discoveryEmpty.Add(ctx, 1, mattrs)
		}
	}
	logs := o.log.Enabled(ctx, slog.LevelInfo)
	if !obs.rec && !logs {
		return
	}
	// The found tools come from the permitted catalog: naming them tells
	// nothing about tools the run may not use.
	found := make([]string, len(res.Tools))
	for i, t := range res.Tools {
		found[i] = t.Name
	}
	if obs.rec {
		span.SetAttributes(agentAttr, attrDiscoveryMode.String(mode), attrDiscoveryQuery.String(dc.Query), attrDiscoveryRequested.Int(len(dc.Names)),
			attrDiscoveryResults.Int(len(found)), attrDiscoveryEmpty.Bool(empty), attrDiscoveryFound.StringSlice(found))
	}
	if logs {
		o.log.LogAttrs(ctx, slog.LevelInfo, "discovery", slog.String("run", r.id), slog.String("agent", r.agent.reg.Name),
			slog.String("mode", mode), slog.String("query", dc.Query), slog.Int("names_requested", len(dc.Names)),
			slog.Any("found", found), slog.Bool("empty", empty))
	}
}

// discoveryMode says how a discovery call asks: by query, by names or both.
func discoveryMode(dc model.DiscoveryCall) string {
	switch {
	case dc.Query != "" && len(dc.Names) > 0:
		return "query_and_names"
	case len(dc.Names) > 0:
		return "names"
	}
	return "query"
}

// startTool starts the span of an admitted call's execution, named as the
// GenAI conventions name a tool execution; a child run nests under it.
func (o *observer) startTool(ctx context.Context, r *run, rec *CallRecord) (context.Context, observation) {
	ctx, obs := o.begin(ctx, "execute_tool "+rec.Name)
	if obs.rec {
		obs.span.SetAttributes(semconv.GenAIOperationNameExecuteTool, semconv.GenAIAgentName(r.agent.reg.Name), semconv.GenAIToolName(rec.Name),
			semconv.GenAIToolCallID(rec.CallID), semconv.GenAIToolType("function"), attrToolSource.String(string(rec.Source.Kind)))
	}
	return ctx, obs
}

// endTool ends the span of a call's execution with what it gave.
func (obs observation) endTool(r *run, rec *CallRecord, res *CallResult, err error) {
	o, ctx := obs.o, obs.ctx
	defer obs.span.End()
	ran := res != nil && res.Ran
	failed := err != nil || (ran && res.Result.IsError)
	agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
	toolAttr := semconv.GenAIToolName(rec.Name)
	if obs.rec {
		obs.span.SetAttributes(attrToolRan.Bool(ran))
		if failed {
			obs.span.SetStatus(codes.Error, "tool call failed")
			obs.span.SetAttributes(semconv.ErrorTypeOther)
		}
	}
	if failed && o.toolErrors.Enabled(ctx) {
		o.toolErrors.Add(ctx, 1, metric.WithAttributes(agentAttr, toolAttr))
	}
	if o.log.Enabled(ctx, slog.LevelInfo) {
		o.log.LogAttrs(ctx, slog.LevelInfo, "tool call", slog.String("run", r.id), slog.String("agent", r.agent.reg.Name),
			slog.String("tool", rec.Name), slog.String("call", rec.CallID), slog.Bool("ran", ran), slog.Bool("failed", failed))
	}
}

// startRegistryRead starts the span of reading the sources at idx, all of
// one registry or MCP source.
func (o *observer) startRegistryRead(ctx context.Context, sources []RegistrySource, idx []int) (context.Context, observation) {
	name := sources[idx[0]].Registry
	ctx, obs := o.begin(ctx, "resolve registry "+name, trace.WithSpanKind(trace.SpanKindClient))
	if obs.rec {
		names := make([]string, len(idx))
		for k, i := range idx {
			names[k] = sources[i].String()
		}
		obs.span.SetAttributes(attrRegistry.String(name), attrRegistrySources.StringSlice(names))
	}
	return ctx, obs
}

// endRegistryRead ends the span of a registry read, counting a failed one.
func (obs observation) endRegistryRead(sources []RegistrySource, idx []int, got [][]resolvedSource, err error) {
	o, ctx := obs.o, obs.ctx
	defer obs.span.End()
	name := sources[idx[0]].Registry
	regAttr := attrRegistry.String(name)
	if err != nil {
		if obs.rec {
			obs.span.SetStatus(codes.Error, "registry read failed")
			obs.span.SetAttributes(semconv.ErrorTypeOther)
		}
		o.registryFailures.Add(ctx, 1, metric.WithAttributes(regAttr))
		o.log.LogAttrs(ctx, slog.LevelError, "registry read failed", slog.String("registry", name), slog.String("error", err.Error()))
		return
	}
	if obs.rec {
		n := 0
		for _, i := range idx {
			n += len(got[i])
		}
		obs.span.SetAttributes(attrRegistryToolsets.Int(n))
	}
}
