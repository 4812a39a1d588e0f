package redisstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// TestWatchDurability: a CONFIG SET after the store started changes the
// durable gauge and is reported, both ways. On the code before, the
// settings were read once, at start, and the gauge kept that value.
func TestWatchDurability(t *testing.T) {
	ctx := context.Background()
	_, url := startRedisWith(t, "--appendonly", "yes", "--appendfsync", "always")
	st, err := redisstore.Open(ctx, url, uniqueName(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reader := sdkmetric.NewManualReader()
	if err := st.Instrument(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var reports []string
	st.WatchDurability(ctx, 20*time.Millisecond, func(weak []redisstore.Weakness, err error) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, fmt.Sprint(weak, err))
	})
	opt, _ := redis.ParseURL(url)
	admin := redis.NewClient(opt)
	defer admin.Close()
	steps := []struct {
		set, value string
		gauge      int64
		report     string
	}{
		{"", "", 1, "[] <nil>"},
		{"appendfsync", "everysec", 0, "[Redis runs with appendfsync everysec, not always: a restart of Redis loses changes it acknowledged] <nil>"},
		{"appendfsync", "always", 1, "[] <nil>"},
		{"appendonly", "no", 0, "[Redis runs with appendonly no, not yes: a restart of Redis loses changes it acknowledged] <nil>"},
	}
	for i, step := range steps {
		if step.set != "" {
			if err := admin.ConfigSet(ctx, step.set, step.value).Err(); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(t, fmt.Sprintf("report %d: %s", i, step.report), func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(reports) > i
		})
		mu.Lock()
		got := reports[i]
		mu.Unlock()
		if got != step.report {
			t.Fatalf("report %d = %q; want %q", i, got, step.report)
		}
		if v, _ := durableGauge(t, reader); v != step.gauge {
			t.Fatalf("after report %d, durable gauge %d; want %d", i, v, step.gauge)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != len(steps) {
		t.Fatalf("reports %q; want one per change", reports)
	}
}
