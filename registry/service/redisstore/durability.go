package redisstore

// Whether Redis keeps what the store acknowledges when Redis restarts. A
// change is acknowledged once Redis ran its script; Redis keeps it across
// a restart only when it writes it to its append-only file and syncs that
// file before answering (appendonly yes, appendfsync always), or, with
// WithReplicas, when the replicas that have it survive. Otherwise a restart
// loses what was acknowledged since the last sync: the nodes notice
// (identity.go), but what was lost is lost. Redis's persistence is its
// operator's setting, which the store reads and reports, never changes.

import (
	"context"
	"fmt"
	"sync/atomic"

	"go.opentelemetry.io/otel/metric"
)

// MetricStoreDurable is 1 while the store's acknowledgements survive a
// restart of Redis as far as its settings tell (see CheckDurability), 0
// otherwise, including before the check and when it could not be made.
const MetricStoreDurable = "goa_discovery.registry.store.durable"

// Weakness is a Redis setting that makes a restart of Redis lose
// acknowledged changes.
type Weakness struct {
	// Setting is the Redis configuration parameter: appendonly or
	// appendfsync.
	Setting string
	// Value is its value; Want is the value that keeps every
	// acknowledged change.
	Value, Want string
}

func (w Weakness) String() string {
	return fmt.Sprintf("Redis runs with %s %s, not %s: a restart of Redis loses changes it acknowledged", w.Setting, w.Value, w.Want)
}

// durable is the value of MetricStoreDurable.
type durable struct{ v atomic.Int64 }

// CheckDurability reads Redis's persistence settings (CONFIG GET) and
// returns those that make a restart of Redis lose acknowledged changes:
// appendonly other than yes or, with it, appendfsync other than always. With
// WithReplicas an acknowledged change is on the replicas too, and none is
// returned. It sets MetricStoreDurable. An error means the settings could
// not be read (a Redis that refuses CONFIG): durability is unknown.
func (s *Store) CheckDurability(ctx context.Context) ([]Weakness, error) {
	if s.cfg.replicas > 0 {
		s.durable.v.Store(1)
		return nil, nil
	}
	s.durable.v.Store(0)
	cfg, err := s.rdb.ConfigGet(ctx, "append*").Result()
	if err != nil {
		return nil, wrap("read the persistence settings (CONFIG GET append*)", err)
	}
	var weak []Weakness
	if v := cfg["appendonly"]; v != "yes" {
		weak = append(weak, Weakness{Setting: "appendonly", Value: v, Want: "yes"})
	} else if v := cfg["appendfsync"]; v != "always" {
		weak = append(weak, Weakness{Setting: "appendfsync", Value: v, Want: "always"})
	}
	if len(weak) == 0 {
		s.durable.v.Store(1)
	}
	return weak, nil
}

// instrumentDurability exports MetricStoreDurable with m.
func (s *Store) instrumentDurability(m metric.Meter) error {
	_, err := m.Int64ObservableGauge(MetricStoreDurable,
		metric.WithDescription("1 while Redis's settings keep every acknowledged change across a restart of Redis (appendonly yes and appendfsync always, or replicas required), 0 otherwise"),
		metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			o.Observe(s.durable.v.Load())
			return nil
		}))
	return err
}
