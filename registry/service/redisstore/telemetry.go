package redisstore

// Telemetry of the Redis store: the latency and failures of its commands,
// measured by a go-redis hook, and go-redis's own log messages sent to a
// slog.Logger, so that a registry's log has one format.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// MetricStoreDuration records the seconds a Redis command (or pipeline)
// of the store took, by command and outcome ("ok", "nil" for a missing
// key, "error").
const MetricStoreDuration = "goa_discovery.registry.store.duration"

// Instrument records the latency of the store's commands with mp.
// It also exports MetricStoreDurable (durability.go).
func (s *Store) Instrument(mp metric.MeterProvider) error {
	m := mp.Meter("github.com/goa-discovery/goa-discovery/registry/service/redisstore")
	if err := s.instrumentDurability(m); err != nil {
		return fmt.Errorf("registry store redis: %w", err)
	}
	h, err := m.Float64Histogram(MetricStoreDuration,
		metric.WithUnit("s"), metric.WithDescription("Time of a Redis command of the registry store, by command and outcome"),
		metric.WithExplicitBucketBoundaries(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1))
	if err != nil {
		return fmt.Errorf("registry store redis: %w", err)
	}
	s.rdb.AddHook(latencyHook{h: h})
	return nil
}

type latencyHook struct{ h metric.Float64Histogram }

func (latencyHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (l latencyHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		l.record(ctx, strings.ToLower(cmd.Name()), start, err)
		return err
	}
}

func (l latencyHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmds)
		l.record(ctx, "pipeline", start, err)
		return err
	}
}

func (l latencyHook) record(ctx context.Context, command string, start time.Time, err error) {
	outcome := "ok"
	switch {
	case errors.Is(err, redis.Nil):
		outcome = "nil"
	case err != nil:
		outcome = "error"
	}
	l.h.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(attribute.String("command", command), attribute.String("outcome", outcome)))
}

// Logger sends go-redis's log messages to l, at warning level (go-redis
// logs what went wrong with its connections). Install it with
// redis.SetLogger, which is process-wide.
func Logger(l *slog.Logger) interface {
	Printf(ctx context.Context, format string, v ...any)
} {
	return redisLogger{l: l}
}

type redisLogger struct{ l *slog.Logger }

func (r redisLogger) Printf(ctx context.Context, format string, v ...any) {
	r.l.WarnContext(ctx, "redis: "+fmt.Sprintf(format, v...))
}
