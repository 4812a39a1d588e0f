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
	"sync"
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

// claimNode is a service on miniredis's Redis store, which renews its
// claims at the service's own cadence (every second), with its metrics and
// its health routes.
type claimNode struct {
	svc    *service.Service
	m      *miniredis.Miniredis
	reader *sdkmetric.ManualReader
	srv    *httptest.Server
}

// newClaimNode starts a claim node; wrap, when set, wraps its store.
func newClaimNode(t *testing.T, wrap func(service.Store) service.Store) *claimNode {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	rst, err := redisstore.New(rdb, "reg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rst.Close() })
	var st service.Store = rst
	if wrap != nil {
		st = wrap(st)
	}
	reader := sdkmetric.NewManualReader()
	svc, err := service.New(service.WithStore(st), service.WithInsecure(),
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
			t.Parallel() // each waits for about three renewals, a second apart
			n := newClaimNode(t, nil)
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

// A call that ends while its claim is being renewed leaves the node
// ready: a renewal that finds the claim ended by the call's result is no
// lapse. The store lets the first renewal of the call's claim through only
// once the result is recorded: after the call has ended (the service no
// longer holds the claim), or while it ends (the service holds the claim,
// marked ending, until the renewal has come back).
func TestEndedClaimsAreNotLost(t *testing.T) {
	for _, afterEnd := range []bool{true, false} {
		name := "while the call ends"
		if afterEnd {
			name = "after the call ended"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits for the first renewal, a second after the claim
			var es *endingStore
			n := newClaimNode(t, func(st service.Store) service.Store {
				es = newEndingStore(st, afterEnd)
				return es
			})
			p := newProvider(t)
			p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
				<-es.renewing // answer once the claim's renewal has started
				return json.RawMessage(`{"name":"record 7"}`), nil
			})
			reg := publish(t, n.svc, p, "1.0.0", "r1")
			if _, err := n.svc.CallResolvedTool(context.Background(), lookup("c", reg.Token, "7")); err != nil {
				t.Fatal(err)
			}
			close(es.ended)
			if r := <-es.renewal; r.err != nil || r.held {
				t.Fatalf("the renewal after the result: held %v, error %v; want the claim ended", r.held, r.err)
			}
			if err := n.svc.Ready(context.Background()); err != nil {
				t.Fatalf("Ready = %v after a call that ended", err)
			}
			if held, renewals := n.claimMetrics(t); held != 0 || renewals["lost"] != 0 || renewals["failed"] != 0 {
				t.Fatalf("claims held %d, renewals %v; want none held, none lost or failed", held, renewals)
			}
		})
	}
}

// endingStore is a Store whose first renewal of a claim reaches the store
// only once the call's result is recorded (CompleteHandedOver), and, with
// afterEnd, once the test closed ended; without afterEnd, the recording
// returns to the service only after that renewal came back.
type endingStore struct {
	service.Store
	afterEnd bool
	// once picks the first renewal, recordOnce the first recording.
	once, recordOnce sync.Once
	// renewing is closed when the first renewal starts, recorded when the
	// result is recorded, renewed when the first renewal came back from
	// the store, whose outcome renewal then holds; the test closes ended
	// once the call has ended.
	renewing, recorded, renewed, ended chan struct{}
	renewal                            chan renewalOutcome
}

type renewalOutcome struct {
	held bool
	err  error
}

func newEndingStore(st service.Store, afterEnd bool) *endingStore {
	return &endingStore{Store: st, afterEnd: afterEnd, renewing: make(chan struct{}), recorded: make(chan struct{}),
		renewed: make(chan struct{}), ended: make(chan struct{}), renewal: make(chan renewalOutcome, 1)}
}

func (s *endingStore) Renew(ctx context.Context, callID string, fence uint64, ttl time.Duration) (bool, error) {
	first := false
	s.once.Do(func() { first = true })
	if !first {
		return s.Store.Renew(ctx, callID, fence, ttl)
	}
	close(s.renewing)
	defer close(s.renewed)
	wait := s.recorded
	if s.afterEnd {
		wait = s.ended
	}
	select {
	case <-wait:
	case <-ctx.Done():
		s.renewal <- renewalOutcome{err: ctx.Err()}
		return false, ctx.Err()
	}
	held, err := s.Store.Renew(ctx, callID, fence, ttl)
	s.renewal <- renewalOutcome{held, err}
	return held, err
}

func (s *endingStore) CompleteHandedOver(ctx context.Context, callID string, fence uint64, res *registry.CallResult) (*registry.CallResult, error) {
	recorded, err := s.Store.CompleteHandedOver(ctx, callID, fence, res)
	s.recordOnce.Do(func() { close(s.recorded) })
	if !s.afterEnd {
		<-s.renewed
	}
	return recorded, err
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
