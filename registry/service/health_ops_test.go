package service_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestRequestIDOnEveryAnswer: every answer carries X-Request-Id, the
// health routes' included: the caller's when valid, else one the registry
// makes.
func TestRequestIDOnEveryAnswer(t *testing.T) {
	srv, _, _, _ := observedServer(t)
	made := regexp.MustCompile(`^[0-9a-f]{16}$`)
	for _, tc := range []struct {
		method, path, token string
		status              int
	}{
		{"GET", service.PathHealthz, "", http.StatusOK},
		{"GET", service.PathReadyz, "", http.StatusOK},
		{"HEAD", service.PathReadyz, "", http.StatusOK},
		{"POST", service.PathHealthz, "", http.StatusMethodNotAllowed},
		{"GET", registry.PathToolsets, consumerToken, http.StatusOK},
		{"GET", registry.PathToolsets, "", http.StatusUnauthorized},
		{"POST", registry.PathToolsets, consumerToken, http.StatusForbidden},
		{"GET", "/v1/nowhere", consumerToken, http.StatusNotFound},
	} {
		for _, id := range []string{"caller-id.1", "", "not valid!"} {
			res := send(t, srv, tc.method, tc.path, tc.token, id, nil)
			got := res.Header.Get(service.RequestIDHeader)
			switch {
			case res.StatusCode != tc.status:
				t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, res.StatusCode, tc.status)
			case id == "caller-id.1" && got != id:
				t.Errorf("%s %s with id %q: X-Request-Id %q, want the caller's", tc.method, tc.path, id, got)
			case id != "caller-id.1" && !made.MatchString(got):
				t.Errorf("%s %s with id %q: X-Request-Id %q, want one the registry makes", tc.method, tc.path, id, got)
			}
		}
	}
}

// frozenStore is a shared store whose generation reads, once frozen, wait
// until thawed whatever their context says, as a read of a Redis that
// accepts connections and never answers does.
type frozenStore struct {
	service.Store
	frozen atomic.Bool
	thaw   chan struct{}
	reads  atomic.Int64
}

func (s *frozenStore) Generation(ctx context.Context) (uint64, error) {
	if s.frozen.Load() {
		s.reads.Add(1)
		<-s.thaw
	}
	return 0, nil
}

// Traits makes frozenStore shared, or Ready never reads it.
func (s *frozenStore) Traits() service.StoreTraits {
	return service.StoreTraits{Shared: true}
}

// TestReadyzAnswersWhileTheStoreIsFrozen: /readyz answers 503
// store_unreachable within ReadyTimeout when the store holds the read
// (before, it waited as long as the store did), and probes that arrive
// meanwhile share the read under way. The 30 s client timeout only ends a
// check that hangs.
func TestReadyzAnswersWhileTheStoreIsFrozen(t *testing.T) {
	st := &frozenStore{Store: memoryStore(), thaw: make(chan struct{})}
	svc, err := service.New(service.WithStore(st), service.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer func() {
		close(st.thaw)
		srv.Close()
		_ = svc.Close()
	}()
	st.frozen.Store(true)
	client := &http.Client{Timeout: 30 * time.Second}
	for range 2 {
		res, err := client.Get(srv.URL + service.PathReadyz)
		if err != nil {
			t.Fatalf("/readyz with the store frozen: %v", err)
		}
		var body struct{ Status, Reason string }
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if json.Unmarshal(raw, &body) != nil || res.StatusCode != http.StatusServiceUnavailable || body.Reason != service.ReasonStoreUnreachable {
			t.Fatalf("/readyz with the store frozen: %d %s, want 503 %s", res.StatusCode, raw, service.ReasonStoreUnreachable)
		}
	}
	if n := st.reads.Load(); n != 1 {
		t.Errorf("%d generation reads held by the frozen store, want 1 shared by every check", n)
	}
}

// TestStoreMetricsFromStart: the store error counter has a series of each
// kind at zero before any failure, and the claims gauge is exported (0) on
// the embedded store too, which forwards without claims.
func TestStoreMetricsFromStart(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	svc, err := service.New(service.WithInsecure(), service.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	errs, held := map[string]int64{}, int64(-1)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				if m.Name == service.MetricStoreErrors {
					for _, dp := range d.DataPoints {
						kind, _ := dp.Attributes.Value("kind")
						errs[kind.AsString()] = dp.Value
					}
				}
			case metricdata.Gauge[int64]:
				if m.Name == service.MetricClaimsHeld && len(d.DataPoints) == 1 {
					held = d.DataPoints[0].Value
				}
			}
		}
	}
	want := map[string]int64{"unavailable": 0, "read_only": 0, "full": 0, "internal": 0}
	if len(errs) != len(want) {
		t.Errorf("store error series %v, want %v", errs, want)
	}
	for k, v := range want {
		if n, ok := errs[k]; !ok || n != v {
			t.Errorf("store errors of kind %s: %d (present: %v), want %d", k, n, ok, v)
		}
	}
	if held != 0 {
		t.Errorf("claims held on the embedded store: %d, want an exported 0", held)
	}
}
