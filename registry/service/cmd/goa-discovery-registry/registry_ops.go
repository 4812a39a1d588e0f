package main

// What "registry serve" tells operators: its access log (--log-format,
// --log-level; go-redis's messages go through the same handler), its
// Prometheus metrics on a listener of their own (--metrics-addr) and its
// request spans sent to an OTLP/HTTP collector (--otlp-endpoint).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// opsFlags are the observability arguments of "registry serve".
type opsFlags struct {
	logFormat    string
	logLevel     string
	metricsAddr  string
	otlpEndpoint string
}

// check reports a bad value.
func (f *opsFlags) check() error {
	if f.logFormat != "text" && f.logFormat != "json" {
		return fmt.Errorf("--log-format must be text or json, got %q", f.logFormat)
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(f.logLevel)); err != nil {
		return fmt.Errorf("--log-level must be debug, info, warn or error, got %q", f.logLevel)
	}
	if f.otlpEndpoint != "" {
		u, err := url.Parse(f.otlpEndpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--otlp-endpoint must be an http or https URL, such as http://127.0.0.1:4318, got %q", f.otlpEndpoint)
		}
	}
	return nil
}

// logger returns the registry's logger writing to w.
func (f *opsFlags) logger(w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(f.logLevel)) // checked by check
	opts := &slog.HandlerOptions{Level: level}
	if f.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// metrics starts the Prometheus endpoint at --metrics-addr and returns the
// meter provider that feeds it, the address it listens on and a function
// that stops it. Without --metrics-addr the provider is nil.
func (f *opsFlags) metrics(log *slog.Logger) (*sdkmetric.MeterProvider, net.Addr, func(context.Context) error, error) {
	if f.metricsAddr == "" {
		return nil, nil, func(context.Context) error { return nil }, nil
	}
	reg := prometheus.NewRegistry()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("metrics: %w", err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
	ln, err := net.Listen("tcp", f.metricsAddr)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics endpoint stopped", "err", err)
		}
	}()
	stop := func(ctx context.Context) error {
		return errors.Join(srv.Shutdown(ctx), mp.Shutdown(ctx))
	}
	return mp, ln.Addr(), stop, nil
}

// tracer returns the tracer provider that sends spans to --otlp-endpoint
// (its path, /v1/traces when it has none); nil without the flag.
func (f *opsFlags) tracer(ctx context.Context) (*sdktrace.TracerProvider, error) {
	if f.otlpEndpoint == "" {
		return nil, nil
	}
	u, _ := url.Parse(f.otlpEndpoint) // checked by check
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(u.String()))
	if err != nil {
		return nil, fmt.Errorf("--otlp-endpoint: %w", err)
	}
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp)), nil
}
