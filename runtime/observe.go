package runtime

// Telemetry: OpenTelemetry spans and metrics and log/slog records for runs,
// planning steps, catalog resolution, planner calls, discovery calls and
// tool executions. Everything here is an observer: the run loop calls it at
// a handful of points (observed* below) and nothing it does changes a run.
//
// The contract with policy: telemetry names only what the run may use. A
// discovery call is described by its query as the model wrote it, the
// number of names it asked for and the tools it found (all permitted, since
// discovery answers from the permitted catalog); a tool is named only once
// its call was admitted. Arguments, results and names a model asked for
// that were not found are never recorded.
//
// Attribute names follow the OpenTelemetry semantic conventions for
// generative AI where they name one (gen_ai.*); the others are this
// toolkit's own (goa_discovery.*).

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// InstrumentationName names the tracer and meter of the runtime.
const InstrumentationName = "github.com/goa-discovery/goa-discovery/runtime"

// attribute keys of this toolkit, for the facts the GenAI conventions do not
// name (README: Observability lists them).
const (
	attrRunParentID        = attribute.Key("goa_discovery.run.parent_id")
	attrRunStop            = attribute.Key("goa_discovery.run.stop")
	attrRunSteps           = attribute.Key("goa_discovery.run.steps")
	attrRunToolCalls       = attribute.Key("goa_discovery.run.tool_calls")
	attrStep               = attribute.Key("goa_discovery.step")
	attrCatalogTools       = attribute.Key("goa_discovery.catalog.tools")
	attrRegistry           = attribute.Key("goa_discovery.registry.name")
	attrRegistrySources    = attribute.Key("goa_discovery.registry.sources")
	attrRegistryToolsets   = attribute.Key("goa_discovery.registry.toolsets")
	attrDeclaredTools      = attribute.Key("goa_discovery.request.tools")
	attrDeclaredBytes      = attribute.Key("goa_discovery.request.tool_bytes")
	attrDiscoveryMode      = attribute.Key("goa_discovery.discovery.mode")
	attrDiscoveryQuery     = attribute.Key("goa_discovery.discovery.query")
	attrDiscoveryRequested = attribute.Key("goa_discovery.discovery.names_requested")
	attrDiscoveryResults   = attribute.Key("goa_discovery.discovery.results")
	attrDiscoveryEmpty     = attribute.Key("goa_discovery.discovery.empty")
	attrDiscoveryFound     = attribute.Key("goa_discovery.discovery.found")
	attrToolSource         = attribute.Key("goa_discovery.tool.source")
	attrToolRan            = attribute.Key("goa_discovery.tool.ran")
)

// Metric names of the runtime. Every metric carries gen_ai.agent.name.
const (
	// MetricDiscoveryCalls counts discovery calls answered, by mode.
	MetricDiscoveryCalls = "goa_discovery.discovery.calls"
	// MetricDiscoveryEmpty counts discovery calls that found no tool.
	MetricDiscoveryEmpty = "goa_discovery.discovery.empty_results"
	// MetricDiscoveryLatency records the seconds a discovery call took.
	MetricDiscoveryLatency = "goa_discovery.discovery.duration"
	// MetricDeclaredTools records the tools each planner request declares.
	MetricDeclaredTools = "goa_discovery.request.tools"
	// MetricDeclaredBytes records the bytes of the tool definitions each
	// planner request declares: names, descriptions and parameter schemas.
	MetricDeclaredBytes = "goa_discovery.request.tool_bytes"
	// MetricToolErrors counts executed tool calls that failed, by tool.
	MetricToolErrors = "goa_discovery.tool.errors"
	// MetricRegistryFailures counts failed reads of a registry or MCP
	// source, by registry.
	MetricRegistryFailures = "goa_discovery.registry.failures"
	// MetricTokenUsage records the planner's tokens per call, by
	// gen_ai.token.type, as the GenAI conventions name it.
	MetricTokenUsage = "gen_ai.client.token.usage"
)

// WithTracerProvider makes the runtime's spans with tp. The default is the
// global provider (otel.GetTracerProvider), a no-op unless the application
// sets one.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(rt *Runtime) { rt.telemetry.tp = tp }
}

// WithMeterProvider records the runtime's metrics with mp. The default is
// the global provider (otel.GetMeterProvider), a no-op unless the
// application sets one.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(rt *Runtime) { rt.telemetry.mp = mp }
}

// WithLogger writes the runtime's structured log records (runs, discovery
// calls, tool calls, registry failures) to l. The default writes none.
func WithLogger(l *slog.Logger) Option {
	return func(rt *Runtime) { rt.telemetry.logger = l }
}

// modelNamer is a planner that names the model it asks, as package
// planner's does; spans of its calls carry gen_ai.request.model.
type modelNamer interface{ Model() string }

// telemetry is the runtime's telemetry configuration; its observer is built
// on the first run, so that a global provider set after New is used.
type telemetry struct {
	tp     trace.TracerProvider
	mp     metric.MeterProvider
	logger *slog.Logger
	once   sync.Once
	obs    *observer
}

// observer holds the tracer, instruments and logger of a runtime.
type observer struct {
	tracer           trace.Tracer
	log              *slog.Logger
	discoveryCalls   metric.Int64Counter
	discoveryEmpty   metric.Int64Counter
	discoveryLatency metric.Float64Histogram
	declaredTools    metric.Int64Histogram
	declaredBytes    metric.Int64Histogram
	toolErrors       metric.Int64Counter
	toolRefused      metric.Int64Counter
	registryFailures metric.Int64Counter
	tokenUsage       metric.Int64Histogram
}

// observer returns the runtime's observer.
func (rt *Runtime) observer() *observer {
	t := &rt.telemetry
	t.once.Do(func() { t.obs = newObserver(t.tp, t.mp, t.logger) })
	return t.obs
}

func newObserver(tp trace.TracerProvider, mp metric.MeterProvider, logger *slog.Logger) *observer {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	m := mp.Meter(InstrumentationName)
	o := &observer{tracer: tp.Tracer(InstrumentationName), log: logger}
	// An instrument that cannot be made is still a valid no-op one; the
	// error goes to the OpenTelemetry error handler, as the API intends.
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	var err error
	o.discoveryCalls, err = m.Int64Counter(MetricDiscoveryCalls, metric.WithUnit("{call}"), metric.WithDescription("Discovery calls answered"))
	add(err)
	o.discoveryEmpty, err = m.Int64Counter(MetricDiscoveryEmpty, metric.WithUnit("{call}"), metric.WithDescription("Discovery calls that found no tool"))
	add(err)
	o.discoveryLatency, err = m.Float64Histogram(MetricDiscoveryLatency, metric.WithUnit("s"), metric.WithDescription("Time to answer a discovery call"))
	add(err)
	o.declaredTools, err = m.Int64Histogram(MetricDeclaredTools, metric.WithUnit("{tool}"), metric.WithDescription("Tools declared per planner request"))
	add(err)
	o.declaredBytes, err = m.Int64Histogram(MetricDeclaredBytes, metric.WithUnit("By"), metric.WithDescription("Bytes of the tool definitions declared per planner request: names, descriptions and parameter schemas"))
	add(err)
	o.toolErrors, err = m.Int64Counter(MetricToolErrors, metric.WithUnit("{call}"), metric.WithDescription("Executed tool calls that failed"))
	add(err)
	o.toolRefused, err = m.Int64Counter(MetricToolRefused, metric.WithUnit("{call}"), metric.WithDescription("Tool calls the runtime refused, by reason"))
	add(err)
	o.registryFailures, err = m.Int64Counter(MetricRegistryFailures, metric.WithUnit("{read}"), metric.WithDescription("Failed reads of a registry or MCP source"))
	add(err)
	o.tokenUsage, err = m.Int64Histogram(MetricTokenUsage, metric.WithUnit("{token}"), metric.WithDescription("Tokens used per planner call"))
	add(err)
	for _, err := range errs {
		otel.Handle(err)
	}
	return o
}

// Without a provider or logger installed, the hooks below cost little: span
// attributes are set only on recording spans, measurements only on enabled
// instruments, log attributes only for an enabled level.

// runObservation is the span of one invocation of a run.
type runObservation struct {
	r    *run
	ctx  context.Context
	span trace.Span
}

// observeRun starts the span of a run's invocation. A child run's span is a
// child of the tool execution that started it.
func (r *run) observeRun(ctx context.Context) (context.Context, runObservation) {
	o := r.rt.observer()
	ctx, span := o.tracer.Start(ctx, "invoke_agent "+r.agent.reg.Name)
	if span.IsRecording() {
		span.SetAttributes(semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName(r.agent.reg.Name), semconv.GenAIConversationID(r.id))
		if r.parent != "" {
			span.SetAttributes(attrRunParentID.String(r.parent))
		}
	}
	if o.log.Enabled(ctx, slog.LevelInfo) {
		o.log.LogAttrs(ctx, slog.LevelInfo, "run started", slog.String("run", r.id), slog.String("agent", r.agent.reg.Name), slog.String("parent", r.parent))
	}
	return ctx, runObservation{r: r, ctx: ctx, span: span}
}

// end ends the run's span with its outcome.
func (ro runObservation) end(stop StopReason, err error) {
	r, o := ro.r, ro.r.rt.observer()
	defer ro.span.End()
	if ro.span.IsRecording() {
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

// observedStep runs one planning step in its span.
func (r *run) observedStep(ctx context.Context) (StopReason, error) {
	ctx, span := r.rt.observer().tracer.Start(ctx, "step")
	defer span.End()
	rec := span.IsRecording()
	if rec {
		span.SetAttributes(semconv.GenAIAgentName(r.agent.reg.Name), attrStep.Int(r.state.Steps+r.steps+1))
	}
	stop, err := r.step(ctx)
	if rec && err != nil {
		span.SetStatus(codes.Error, "step failed")
	}
	if rec && stop != "" {
		span.SetAttributes(attrRunStop.String(string(stop)))
	}
	return stop, err
}

// observedCatalog resolves the step's catalog in its span.
func (r *run) observedCatalog(ctx context.Context) (*catalog, error) {
	ctx, span := r.rt.observer().tracer.Start(ctx, "resolve catalog")
	defer span.End()
	cat, err := r.rt.stepCatalog(ctx, r.agent, r.policy.labels)
	if err == nil {
		r.recordDropped(ctx, span, cat.dropped)
	}
	if span.IsRecording() {
		span.SetAttributes(semconv.GenAIAgentName(r.agent.reg.Name))
		if err != nil {
			span.SetStatus(codes.Error, "catalog resolution failed")
		} else {
			span.SetAttributes(attrCatalogTools.Int(len(cat.byName)))
		}
	}
	return cat, err
}

// recordDropped records each MCP tool the step's catalog left out, naming
// its server and tool: a span event and a WARN log record.
func (r *run) recordDropped(ctx context.Context, span trace.Span, dropped []droppedTool) {
	log := r.rt.observer().log
	for _, d := range dropped {
		if span.IsRecording() {
			span.AddEvent("tool dropped", trace.WithAttributes(
				attribute.String("goa_discovery.mcp.server", d.source.Server),
				attribute.String("goa_discovery.tool", string(d.id)),
				attribute.String("goa_discovery.reason", d.reason)))
		}
		log.LogAttrs(ctx, slog.LevelWarn, "MCP tool left out of the catalog",
			slog.String("run", r.id), slog.String("agent", r.agent.reg.Name),
			slog.String("server", d.source.Server), slog.String("tool", string(d.id)), slog.String("reason", d.reason))
	}
}

// observedPlan calls the agent's planner in a span named as the GenAI
// conventions name a chat call, with the step's declarations measured.
func (r *run) observedPlan(ctx context.Context, in *PlanInput) (*model.Response, error) {
	o := r.rt.observer()
	modelName := ""
	if mn, ok := r.agent.reg.Planner.(modelNamer); ok {
		modelName = mn.Model()
	}
	name := "chat"
	if modelName != "" {
		name = "chat " + modelName
	}
	ctx, span := o.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	rec := span.IsRecording()
	measure := o.declaredTools.Enabled(ctx) || o.declaredBytes.Enabled(ctx)
	agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
	if rec || measure {
		var declared []model.ToolDefinition
		if sc, ok := in.Agent.(*stepContext); ok {
			declared = sc.tools
		}
		size := 0
		for _, d := range declared {
			size += len(d.Name) + len(d.Description) + len(d.Parameters)
		}
		if rec {
			span.SetAttributes(semconv.GenAIOperationNameChat, agentAttr, semconv.GenAIConversationID(r.id),
				attrDeclaredTools.Int(len(declared)), attrDeclaredBytes.Int(size))
			if modelName != "" {
				span.SetAttributes(semconv.GenAIRequestModel(modelName))
			}
		}
		if measure {
			o.declaredTools.Record(ctx, int64(len(declared)), metric.WithAttributes(agentAttr))
			o.declaredBytes.Record(ctx, int64(size), metric.WithAttributes(agentAttr))
		}
	}
	resp, err := r.agent.reg.Planner.Plan(ctx, in)
	if err != nil {
		if rec {
			span.SetStatus(codes.Error, "planner failed")
			span.SetAttributes(semconv.ErrorTypeOther)
		}
		return resp, err
	}
	if resp == nil {
		return resp, err
	}
	u := resp.Usage
	if rec {
		span.SetAttributes(semconv.GenAIResponseFinishReasons(string(resp.FinishReason)),
			semconv.GenAIUsageInputTokens(u.InputTokens), semconv.GenAIUsageOutputTokens(u.OutputTokens))
	}
	if o.tokenUsage.Enabled(ctx) {
		o.tokenUsage.Record(ctx, int64(u.InputTokens), metric.WithAttributes(agentAttr, semconv.GenAIOperationNameChat, semconv.GenAITokenTypeInput))
		o.tokenUsage.Record(ctx, int64(u.OutputTokens), metric.WithAttributes(agentAttr, semconv.GenAIOperationNameChat, semconv.GenAITokenTypeOutput))
	}
	return resp, err
}

// observedAnswer answers a discovery call in its span and counts it.
func (r *run) observedAnswer(ctx context.Context, cat *catalog, dc model.DiscoveryCall) (model.DiscoveryResult, error) {
	o := r.rt.observer()
	ctx, span := o.tracer.Start(ctx, "discover tools")
	defer span.End()
	start := time.Now()
	res, err := r.answer(cat, dc)
	elapsed := time.Since(start).Seconds()
	rec := span.IsRecording()
	if err != nil {
		if rec {
			span.SetStatus(codes.Error, "discovery failed")
		}
		return res, err
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
	if !rec && !logs {
		return res, nil
	}
	// The found tools come from the permitted catalog: naming them tells
	// nothing about tools the run may not use.
	found := make([]string, len(res.Tools))
	for i, t := range res.Tools {
		found[i] = t.Name
	}
	if rec {
		span.SetAttributes(agentAttr, attrDiscoveryMode.String(mode), attrDiscoveryQuery.String(dc.Query), attrDiscoveryRequested.Int(len(dc.Names)),
			attrDiscoveryResults.Int(len(found)), attrDiscoveryEmpty.Bool(empty), attrDiscoveryFound.StringSlice(found))
	}
	if logs {
		o.log.LogAttrs(ctx, slog.LevelInfo, "discovery", slog.String("run", r.id), slog.String("agent", r.agent.reg.Name),
			slog.String("mode", mode), slog.String("query", dc.Query), slog.Int("names_requested", len(dc.Names)),
			slog.Any("found", found), slog.Bool("empty", empty))
	}
	return res, nil
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

// observedExecute executes an admitted call in a span named as the GenAI
// conventions name a tool execution; a child run nests under it.
func (r *run) observedExecute(ctx context.Context, a *admission) (model.ToolResult, bool, error) {
	o := r.rt.observer()
	ctx, span := o.tracer.Start(ctx, "execute_tool "+a.call.Name)
	defer span.End()
	rec := span.IsRecording()
	agentAttr := semconv.GenAIAgentName(r.agent.reg.Name)
	toolAttr := semconv.GenAIToolName(a.call.Name)
	if rec {
		span.SetAttributes(semconv.GenAIOperationNameExecuteTool, agentAttr, toolAttr, semconv.GenAIToolCallID(a.call.ID),
			semconv.GenAIToolType("function"), attrToolSource.String(string(a.tool.source.Kind)))
	}
	res, ran, err := r.execute(ctx, a)
	failed := err != nil || (ran && res.IsError)
	if rec {
		span.SetAttributes(attrToolRan.Bool(ran))
		if failed {
			span.SetStatus(codes.Error, "tool call failed")
			span.SetAttributes(semconv.ErrorTypeOther)
		}
	}
	if failed && o.toolErrors.Enabled(ctx) {
		o.toolErrors.Add(ctx, 1, metric.WithAttributes(agentAttr, toolAttr))
	}
	if o.log.Enabled(ctx, slog.LevelInfo) {
		o.log.LogAttrs(ctx, slog.LevelInfo, "tool call", slog.String("run", r.id), slog.String("agent", r.agent.reg.Name),
			slog.String("tool", a.call.Name), slog.String("call", a.call.ID), slog.Bool("ran", ran), slog.Bool("failed", failed))
	}
	return res, ran, err
}

// observedReadRegistry reads the sources at idx, all of one registry or MCP
// source, in a span, and counts a failed read.
func (rt *Runtime) observedReadRegistry(ctx context.Context, sources []RegistrySource, idx []int, got [][]resolvedSource) error {
	o := rt.observer()
	name := sources[idx[0]].Registry
	ctx, span := o.tracer.Start(ctx, "resolve registry "+name, trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	rec := span.IsRecording()
	regAttr := attrRegistry.String(name)
	if rec {
		names := make([]string, len(idx))
		for k, i := range idx {
			names[k] = sources[i].String()
		}
		span.SetAttributes(regAttr, attrRegistrySources.StringSlice(names))
	}
	if err := rt.readRegistry(ctx, sources, idx, got); err != nil {
		if rec {
			span.SetStatus(codes.Error, "registry read failed")
			span.SetAttributes(semconv.ErrorTypeOther)
		}
		o.registryFailures.Add(ctx, 1, metric.WithAttributes(regAttr))
		o.log.LogAttrs(ctx, slog.LevelError, "registry read failed", slog.String("registry", name), slog.String("error", err.Error()))
		return err
	}
	if rec {
		n := 0
		for _, i := range idx {
			n += len(got[i])
		}
		span.SetAttributes(attrRegistryToolsets.Int(n))
	}
	return nil
}
