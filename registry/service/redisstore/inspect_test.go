package redisstore_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestInspectCallsAndLeases lists a node's calls (all, pending, limited)
// and the lease states of its registrations, through another node.
func TestInspectCallsAndLeases(t *testing.T) { eachRedis(t, testInspectCallsAndLeases) }

func testInspectCallsAndLeases(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	p := newProvider(t)
	clk := &clock{now: epoch}
	opts := []service.Option{service.WithProviderLease(10 * time.Second), service.WithClock(clk.Now)}
	a, b := newNode(t, rdb, name, opts...), newNode(t, rdb, name, opts...)
	r := publish(t, a, p, "notes", "1.0.0", "r1")
	if _, err := a.CallResolvedTool(ctx, get("c1", "notes", r.Token, "x")); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	p.busy.Store(1)
	if _, err := a.CallResolvedTool(ctx, get("c2", "notes", r.Token, "y")); err == nil {
		t.Fatal("the busy provider's call succeeded")
	}
	for _, c := range []struct {
		pending bool
		limit   int
		want    []string
		more    bool
	}{
		{false, 10, []string{"c2 pending", "c1 done"}, false},
		{true, 10, []string{"c2 pending"}, false},
		{false, 1, []string{"c2 pending"}, true},
	} {
		got, err := b.ListCalls(ctx, c.pending, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		var states []string
		for _, call := range got.Calls {
			states = append(states, call.CallID+" "+call.State)
		}
		if len(states) != len(c.want) || got.Truncated != c.more {
			t.Fatalf("ListCalls(%v, %d) = %v truncated %v, want %v truncated %v", c.pending, c.limit, states, got.Truncated, c.want, c.more)
		}
		for i := range states {
			if states[i] != c.want[i] {
				t.Errorf("ListCalls(%v, %d) = %v, want %v", c.pending, c.limit, states, c.want)
			}
		}
	}
	for _, c := range []struct {
		advance time.Duration
		want    string
	}{{0, service.LeaseLive}, {10 * time.Second, service.LeaseExpired}} {
		clk.Advance(c.advance)
		regs, err := b.Inspect(ctx, "notes")
		if err != nil {
			t.Fatal(err)
		}
		if got := regs.Registrations[0]; got.Lease != c.want || !got.LeaseUntil.Equal(epoch.Add(10*time.Second)) || got.Endpoint != normalized(t, p.url) {
			t.Errorf("after %v: lease %s until %v at %s, want %s until %v", c.advance, got.Lease, got.LeaseUntil, got.Endpoint, c.want, epoch.Add(10*time.Second))
		}
	}
}

// TestStoreTelemetry measures the store's commands and sends go-redis's
// log messages to slog.
func TestStoreTelemetry(t *testing.T) {
	m, rdb := newMini(t)
	st, err := redisstore.New(rdb, "reg")
	if err != nil {
		t.Fatal(err)
	}
	reader := sdkmetric.NewManualReader()
	if err := st.Instrument(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Generation(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if _, err := st.Generation(context.Background()); err == nil {
		t.Fatal("a closed Redis answered")
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			if h, ok := mt.Data.(metricdata.Histogram[float64]); ok && mt.Name == redisstore.MetricStoreDuration {
				for _, dp := range h.DataPoints {
					o, _ := dp.Attributes.Value("outcome")
					outcomes[o.AsString()] += dp.Count
				}
			}
		}
	}
	if outcomes["error"] == 0 || outcomes["ok"]+outcomes["nil"] == 0 {
		t.Errorf("store command outcomes %v, want errors and answers", outcomes)
	}

	var logs bytes.Buffer
	redisstore.Logger(slog.New(slog.NewJSONHandler(&logs, nil))).Printf(context.Background(), "connection pool: %s", "dial failed")
	if got := logs.String(); !bytes.Contains([]byte(got), []byte(`"level":"WARN","msg":"redis: connection pool: dial failed"`)) {
		t.Errorf("log %q", got)
	}
}

// normalized is the form the registry stores an endpoint in.
func normalized(t *testing.T, endpoint string) string {
	t.Helper()
	n, err := registry.NormalizeEndpoint(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
