package service

// The service's OpenTelemetry instruments: requests by route and outcome,
// their latency, the calls this service is forwarding now, store failures,
// and the claims it holds and their renewals (claims.go). A meter or tracer provider left unset is the global one, a
// no-op unless the application sets it; "registry serve --metrics-addr"
// sets a Prometheus exporter's.

import (
	"context"
	"errors"
	"log/slog"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// InstrumentationName names the tracer and meter of the service.
const InstrumentationName = "github.com/goa-discovery/goa-discovery/registry/service"

// Metric names of the service.
const (
	// MetricRequests counts HTTP requests by route and outcome ("ok" or
	// the error's registry.Code).
	MetricRequests = "goa_discovery.registry.requests"
	// MetricRequestDuration records the seconds a request took, by route
	// and outcome.
	MetricRequestDuration = "goa_discovery.registry.request.duration"
	// MetricCallsForwarding is the number of admitted calls this service
	// is forwarding now: pending calls a provider has not answered yet.
	MetricCallsForwarding = "goa_discovery.registry.calls.forwarding"
	// MetricStoreErrors counts store operations that failed, by kind
	// (unavailable, read_only, full, internal).
	MetricStoreErrors = "goa_discovery.registry.store.errors"
	// MetricClaimsHeld is the number of claims this service holds now on
	// the calls it forwards (attempts.go).
	MetricClaimsHeld = "goa_discovery.registry.claims.held"
	// MetricClaimRenewals counts renewals of this service's claims by
	// outcome: "ok", "failed" (the store failed it) or "lost" (the claim
	// had lapsed).
	MetricClaimRenewals = "goa_discovery.registry.claims.renewals"
)

// latencyBuckets are the bucket bounds, in seconds, of the request
// latency: from a cached catalog read to a call that waits for its
// provider up to the forward timeout.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// WithMeterProvider records the service's metrics with mp.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(o *options) { o.meters = mp } }

// WithTracerProvider makes the service's request spans with tp.
func WithTracerProvider(tp trace.TracerProvider) Option { return func(o *options) { o.tracers = tp } }

// telemetry holds the service's instruments.
type telemetry struct {
	tracer        trace.Tracer
	requests      metric.Int64Counter
	latency       metric.Float64Histogram
	storeErrors   metric.Int64Counter
	claimRenewals metric.Int64Counter
}

// newTelemetry makes the instruments of s. An instrument that cannot be
// made is a no-op one, and its error goes to the OpenTelemetry error
// handler, as the API intends.
func (s *Service) newTelemetry() {
	mp, tp := s.opts.meters, s.opts.tracers
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	m := mp.Meter(InstrumentationName)
	t := &telemetry{tracer: tp.Tracer(InstrumentationName)}
	var err error
	handle := func(e error) {
		if e != nil {
			otel.Handle(e)
		}
	}
	t.requests, err = m.Int64Counter(MetricRequests, metric.WithUnit("{request}"), metric.WithDescription("HTTP requests by route and outcome"))
	handle(err)
	t.latency, err = m.Float64Histogram(MetricRequestDuration, metric.WithUnit("s"), metric.WithDescription("Time to answer an HTTP request, by route and outcome"),
		metric.WithExplicitBucketBoundaries(latencyBuckets...))
	handle(err)
	t.storeErrors, err = m.Int64Counter(MetricStoreErrors, metric.WithUnit("{operation}"), metric.WithDescription("Store operations that failed, by kind"))
	handle(err)
	for _, kind := range storeErrorKinds {
		// A series of each kind from the start, at zero, so that an
		// alert on its rate has a series before the first failure.
		t.storeErrors.Add(context.Background(), 0, metric.WithAttributes(attribute.String("kind", kind)))
	}
	t.claimRenewals, err = m.Int64Counter(MetricClaimRenewals, metric.WithUnit("{renewal}"), metric.WithDescription("Renewals of this service's claims on the calls it forwards, by outcome"))
	handle(err)
	_, err = m.Int64ObservableGauge(MetricClaimsHeld, metric.WithUnit("{claim}"), metric.WithDescription("Claims this service holds on the calls it forwards through a shared store"),
		metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			held, _, _ := s.claimState()
			o.Observe(int64(held))
			return nil
		}))
	handle(err)
	_, err = m.Int64ObservableGauge(MetricCallsForwarding, metric.WithUnit("{call}"), metric.WithDescription("Admitted calls this service is forwarding now"),
		metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			s.callMu.Lock()
			n := len(s.running)
			s.callMu.Unlock()
			o.Observe(int64(n))
			return nil
		}))
	handle(err)
	s.telemetry = t
	s.log = s.opts.logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
}

// storeErrorKinds are the kinds of MetricStoreErrors.
var storeErrorKinds = [...]string{"unavailable", "read_only", "full", "internal"}

// countStoreError counts a failed store operation by its kind.
func (s *Service) countStoreError(err error) {
	kind := "internal"
	switch {
	case errors.Is(err, ErrUnavailable):
		kind = "unavailable"
	case errors.Is(err, ErrReadOnly):
		kind = "read_only"
	case errors.Is(err, ErrStorageFull):
		kind = "full"
	}
	s.telemetry.storeErrors.Add(context.Background(), 1, metric.WithAttributes(attribute.String("kind", kind)))
}
