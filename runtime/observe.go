package runtime

// Telemetry: OpenTelemetry spans and metrics and log/slog records for runs,
// planning steps, catalog resolution, planner calls, discovery calls and
// tool executions. Everything here is an observer: the run loop calls it at
// a handful of points (observation.go) and nothing it does changes a run.
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
	"log/slog"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
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
