package redisstore_test

import (
	"context"
	"slices"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// durableGauge returns the value of MetricStoreDurable that reader holds,
// and whether it holds one.
func durableGauge(t *testing.T, reader *sdkmetric.ManualReader) (int64, bool) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if g, ok := m.Data.(metricdata.Gauge[int64]); ok && m.Name == redisstore.MetricStoreDurable && len(g.DataPoints) == 1 {
				return g.DataPoints[0].Value, true
			}
		}
	}
	return 0, false
}

// TestCheckDurability: each persistence setting of a redis-server that
// loses acknowledged changes when it restarts is named, and the durable
// gauge, exported from the start at 0, is 1 only for a Redis that keeps
// them or a store that waits for replicas.
func TestCheckDurability(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		opts  []redisstore.Option
		weak  []string // "setting value"
		gauge int64
	}{
		{"no append-only file", []string{"--appendonly", "no"}, nil, []string{"appendonly no"}, 0},
		{"append-only, synced every second", []string{"--appendonly", "yes", "--appendfsync", "everysec"}, nil, []string{"appendfsync everysec"}, 0},
		{"append-only, never synced", []string{"--appendonly", "yes", "--appendfsync", "no"}, nil, []string{"appendfsync no"}, 0},
		{"append-only, synced always", []string{"--appendonly", "yes", "--appendfsync", "always"}, nil, nil, 1},
		{"replicas required", []string{"--appendonly", "no"}, []redisstore.Option{redisstore.WithReplicas(1, time.Second)}, nil, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, url := startRedisWith(t, tc.args...)
			st, err := redisstore.Open(context.Background(), url, uniqueName(t), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			reader := sdkmetric.NewManualReader()
			if err := st.Instrument(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))); err != nil {
				t.Fatal(err)
			}
			if v, ok := durableGauge(t, reader); !ok || v != 0 {
				t.Errorf("durable gauge before the check: %d (exported: %v); want 0", v, ok)
			}
			weak, err := st.CheckDurability(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range weak {
				got = append(got, w.Setting+" "+w.Value)
			}
			if !slices.Equal(got, tc.weak) {
				t.Errorf("weaknesses %q; want %q", got, tc.weak)
			}
			if v, _ := durableGauge(t, reader); v != tc.gauge {
				t.Errorf("durable gauge %d; want %d", v, tc.gauge)
			}
		})
	}
}
