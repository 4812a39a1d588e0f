package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// claimNode is a service on miniredis's Redis store that renews its claims
// every 10 ms, with its metrics and its health routes.
type claimNode struct {
	svc    *service.Service
	m      *miniredis.Miniredis
	reader *sdkmetric.ManualReader
	srv    *httptest.Server
}

func newClaimNode(t *testing.T) *claimNode {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	st, err := redisstore.New(rdb, "reg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	reader := sdkmetric.NewManualReader()
	svc, err := service.New(service.WithStore(st), service.WithInsecure(), service.WithClaimRenewal(10*time.Millisecond),
		service.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	return &claimNode{svc: svc, m: m, reader: reader, srv: srv}
}

// readyz returns the status and body of the node's readiness check.
func (n *claimNode) readyz(t *testing.T) (int, string) {
	t.Helper()
	res, err := http.Get(n.srv.URL + service.PathReadyz)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, strings.TrimSpace(string(body))
}

// claimMetrics returns the claims held now and the renewals by outcome.
func (n *claimNode) claimMetrics(t *testing.T) (int64, map[string]int64) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := n.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	held, renewals := int64(-1), map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Gauge[int64]:
				if m.Name == service.MetricClaimsHeld && len(d.DataPoints) == 1 {
					held = d.DataPoints[0].Value
				}
			case metricdata.Sum[int64]:
				if m.Name == service.MetricClaimRenewals {
					for _, dp := range d.DataPoints {
						o, _ := dp.Attributes.Value("outcome")
						renewals[o.AsString()] += dp.Value
					}
				}
			}
		}
	}
	return held, renewals
}

// A node forwarding a call holds its claim and says so; when the store
// fails the claim's renewals, or a renewal finds the claim lapsed, the node
// is not ready, with the reason, and the renewals are counted by outcome.
func TestReadinessFollowsClaimRenewals(t *testing.T) {
	cases := []struct {
		name    string
		trouble func(m *miniredis.Miniredis)
		reason  string
		outcome string
		// recover, when set, ends the trouble: the node is ready again.
		recover func(m *miniredis.Miniredis)
	}{
		{"the store fails renewals", func(m *miniredis.Miniredis) { m.SetError("ERR injected failure") },
			service.ReasonClaimsNotRenewed, "failed", func(m *miniredis.Miniredis) { m.SetError("") }},
		{"a renewal finds the claim lapsed", func(m *miniredis.Miniredis) { m.HDel("goa-discovery:{reg}:call:c", "claim") },
			service.ReasonClaimsLost, "lost", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := newClaimNode(t)
			p := newProvider(t)
			gate := make(chan struct{})
			t.Cleanup(func() { close(gate) })
			p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
				<-gate
				return json.RawMessage(`{"name":"record 7"}`), nil
			})
			reg := publish(t, n.svc, p, "1.0.0", "r1")
			if status, body := n.readyz(t); status != http.StatusOK || body != `{"status":"ready","store":"reachable","claims_held":0,"store_resets":0}` {
				t.Fatalf("readyz before the call: %d %s", status, body)
			}
			go func() { _, _ = n.svc.CallResolvedTool(context.Background(), lookup("c", reg.Token, "7")) }()
			waitFor(t, "the call's claim to be held and renewed", func() bool {
				held, renewals := n.claimMetrics(t)
				return held == 1 && renewals["ok"] > 0
			})
			if status, body := n.readyz(t); status != http.StatusOK || body != `{"status":"ready","store":"reachable","claims_held":1,"store_resets":0}` {
				t.Fatalf("readyz while the call is forwarded: %d %s", status, body)
			}
			tc.trouble(n.m)
			want := fmt.Sprintf(`{"status":"not_ready","reason":%q}`, tc.reason)
			waitFor(t, "the node to be not ready", func() bool {
				status, body := n.readyz(t)
				return status == http.StatusServiceUnavailable && body == want
			})
			var nr *service.NotReadyError
			if err := n.svc.Ready(context.Background()); !errors.As(err, &nr) || nr.Reason != tc.reason {
				t.Fatalf("Ready = %v, want reason %s", err, tc.reason)
			}
			if _, renewals := n.claimMetrics(t); renewals[tc.outcome] == 0 {
				t.Fatalf("renewals %v, want some %s", renewals, tc.outcome)
			}
			if tc.recover == nil {
				return
			}
			tc.recover(n.m)
			waitFor(t, "the node to be ready again", func() bool {
				status, body := n.readyz(t)
				return status == http.StatusOK && body == `{"status":"ready","store":"reachable","claims_held":1,"store_resets":0}`
			})
		})
	}
}

// Calls that end while their claims are being renewed leave the node
// ready: a renewal that finds a claim ended by its call's result is no
// lapse.
func TestEndedClaimsAreNotLost(t *testing.T) {
	n := newClaimNode(t)
	p := newProvider(t)
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		time.Sleep(time.Duration(time.Now().UnixNano()%7) * time.Millisecond) // spread the ends over the renewals
		return json.RawMessage(`{"name":"record 7"}`), nil
	})
	reg := publish(t, n.svc, p, "1.0.0", "r1")
	for i := range 60 {
		if _, err := n.svc.CallResolvedTool(context.Background(), lookup(fmt.Sprintf("c%d", i), reg.Token, "7")); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.svc.Ready(context.Background()); err != nil {
		t.Fatalf("Ready = %v after calls that ended", err)
	}
	if held, renewals := n.claimMetrics(t); held != 0 || renewals["lost"] != 0 || renewals["failed"] != 0 {
		t.Fatalf("claims held %d, renewals %v; want none held, none lost or failed", held, renewals)
	}
}

// waitFor polls ok until it holds, failing the test after 20 seconds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20s for %s", what)
		}
	}
}
