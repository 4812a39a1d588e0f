package service_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
)

const inspectorToken = "inspector-0123456789abcdef0123456789abcdef"

// observedServer serves a registry with the test credentials (and an
// inspector) whose access log, metrics and spans go to the returned sinks.
func observedServer(t *testing.T) (*httptest.Server, *bytes.Buffer, *sdkmetric.ManualReader, *tracetest.SpanRecorder) {
	t.Helper()
	creds, err := access.Parse(strings.NewReader(testCredentials + "inspector token:" + inspectorToken + " inspect\n"))
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	reader, spans := sdkmetric.NewManualReader(), tracetest.NewSpanRecorder()
	svc, err := service.New(service.WithCredentials(creds), service.WithLoopbackEndpoints(),
		service.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		service.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		service.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = svc.Close()
	})
	return srv, &logs, reader, spans
}

// send makes one request with a bearer token and a request id.
func send(t *testing.T, srv *httptest.Server, method, path, token, id string, body any) *http.Response {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, srv.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set(service.RequestIDHeader, id)
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	res.Body = io.NopCloser(bytes.NewReader(raw))
	return res
}

// accessRecords returns the access log's records by request id.
func accessRecords(t *testing.T, logs *bytes.Buffer) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(logs.Bytes()))
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if id, ok := rec["request_id"].(string); ok {
			if _, dup := out[id]; dup {
				t.Errorf("request %s logged twice", id)
			}
			out[id] = rec
		}
	}
	return out
}

// TestAccessLog sends each kind of request, admitted and refused, and finds
// one record per request with its principal, scope, toolset, tool, outcome
// and status; no credential, registration token, payload or result in the
// log; and the same requests counted by route and outcome and spanned.
func TestAccessLog(t *testing.T) {
	srv, logs, reader, spans := observedServer(t)
	p := newProvider(t)
	const secretArg = "payload-secret-4b1d"
	var token registry.Token

	steps := []struct {
		id, method, path, bearer string
		body                     func() any
		status                   int
		want                     map[string]any
		after                    func(t *testing.T, res *http.Response)
	}{
		{id: "pub-1", method: "POST", path: registry.PathToolsets, bearer: publisherToken,
			body: func() any {
				return registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: p.server.URL + "/tools"}
			},
			status: http.StatusCreated,
			want:   map[string]any{"route": "publish", "principal": "records-provider", "scope": "publish:records", "toolset": "records@1.0.0", "outcome": "ok", "level": "INFO"},
			after: func(t *testing.T, res *http.Response) {
				var out registry.PublishResult
				if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
					t.Fatal(err)
				}
				token = out.Registration.Token
			}},
		{id: "list-1", method: "GET", path: registry.PathToolsets, bearer: consumerToken, status: http.StatusOK,
			want: map[string]any{"route": "list", "principal": "reader", "scope": "consume", "outcome": "ok"}},
		{id: "res-1", method: "POST", path: registry.PathResolve, bearer: consumerToken,
			body: func() any {
				return registry.ResolveRequest{Toolsets: []registry.ToolsetRef{{Name: "records", Version: "1.0.0"}}}
			},
			status: http.StatusOK,
			want:   map[string]any{"route": "resolve", "principal": "reader", "scope": "consume", "toolset": "records@1.0.0", "outcome": "ok"}},
		{id: "call-1", method: "POST", path: registry.PathCalls, bearer: callerToken,
			body:   func() any { return lookup("c1", token, secretArg) },
			status: http.StatusOK,
			want:   map[string]any{"route": "call", "principal": "agent", "scope": "call:records", "toolset": "records", "tool": "records.lookup", "call_id": "c1", "outcome": "ok"}},
		{id: "call-2", method: "POST", path: registry.PathCalls, bearer: callerToken,
			body:   func() any { return lookup("c2", registry.Token("reg1-"+strings.Repeat("0", 64)), secretArg) },
			status: http.StatusConflict,
			want:   map[string]any{"route": "call", "principal": "agent", "tool": "records.lookup", "outcome": "call_not_admitted", "level": "WARN", "msg": "registry call refused"}},
		{id: "bad-cred", method: "GET", path: registry.PathToolsets, bearer: strangerToken, status: http.StatusUnauthorized,
			want: map[string]any{"route": "list", "principal": nil, "outcome": "unauthenticated", "level": "WARN"}},
		{id: "forbidden", method: "POST", path: registry.PathToolsets, bearer: consumerToken,
			body: func() any {
				return registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL + "/tools"}
			},
			status: http.StatusForbidden,
			want:   map[string]any{"route": "publish", "principal": "reader", "scope": "publish", "outcome": "forbidden"}}, // refused before the body (and its toolset) is read
		{id: "renew-1", method: "POST", path: registry.PathRenew, bearer: publisherToken,
			body:   func() any { return registry.RenewRequest{Toolset: "records", Token: token} },
			status: http.StatusBadRequest, // this registry grants no leases
			want:   map[string]any{"route": "renew", "principal": "records-provider", "scope": "publish:records", "toolset": "records"}},
		{id: "regs-1", method: "GET", path: service.PathRegistrations, bearer: inspectorToken, status: http.StatusOK,
			want: map[string]any{"route": "registrations", "principal": "inspector", "scope": "inspect", "outcome": "ok"}},
		{id: "calls-1", method: "GET", path: registry.PathCalls + "?pending=true", bearer: inspectorToken, status: http.StatusOK,
			want: map[string]any{"route": "calls", "principal": "inspector", "scope": "inspect", "outcome": "ok"}},
		{id: "wd-1", method: "POST", path: registry.PathWithdraw, bearer: publisherToken,
			body:   func() any { return registry.WithdrawRequest{Toolset: "records", Token: token} },
			status: http.StatusNoContent,
			want:   map[string]any{"route": "withdraw", "principal": "records-provider", "scope": "publish:records", "toolset": "records", "outcome": "ok"}},
		{id: "nowhere", method: "GET", path: "/v1/nowhere", bearer: consumerToken, status: http.StatusNotFound,
			want: map[string]any{"route": "other", "outcome": "not_found"}},
	}
	for _, st := range steps {
		var body any
		if st.body != nil {
			body = st.body()
		}
		res := send(t, srv, st.method, st.path, st.bearer, st.id, body)
		if res.StatusCode != st.status {
			raw, _ := io.ReadAll(res.Body)
			t.Fatalf("%s: status %d, want %d: %s", st.id, res.StatusCode, st.status, raw)
		}
		if got := res.Header.Get(service.RequestIDHeader); got != st.id {
			t.Errorf("%s: answer's request id %q", st.id, got)
		}
		if st.after != nil {
			st.after(t, res)
		}
	}

	records := accessRecords(t, logs)
	for _, st := range steps {
		rec, ok := records[st.id]
		if !ok {
			t.Errorf("%s: no access record in\n%s", st.id, logs)
			continue
		}
		if got := rec["status"]; got != float64(st.status) {
			t.Errorf("%s: status %v, want %d", st.id, got, st.status)
		}
		if _, ok := rec["duration"]; !ok {
			t.Errorf("%s: no duration", st.id)
		}
		for k, v := range st.want {
			if rec[k] != v {
				t.Errorf("%s: %s = %v, want %v", st.id, k, rec[k], v)
			}
		}
	}
	for _, secret := range []string{publisherToken, consumerToken, callerToken, strangerToken, inspectorToken, string(token), secretArg, "record " + secretArg} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q", secret)
		}
	}

	// The metrics count the same requests by route and outcome.
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == service.MetricRequests {
				for _, dp := range sum.DataPoints {
					r, _ := dp.Attributes.Value("route")
					o, _ := dp.Attributes.Value("outcome")
					counts[r.AsString()+"/"+o.AsString()] += dp.Value
				}
			}
		}
	}
	for key, n := range map[string]int64{"publish/ok": 1, "publish/forbidden": 1, "call/ok": 1, "call/call_not_admitted": 1, "list/unauthenticated": 1, "withdraw/ok": 1} {
		if counts[key] != n {
			t.Errorf("requests %s = %d, want %d (all: %v)", key, counts[key], n, counts)
		}
	}
	if got := len(spans.Ended()); got != len(steps) {
		t.Errorf("%d request spans, want %d", got, len(steps))
	}
}

// TestHealthChecks asks the health routes without credentials: live and
// ready answer 200 and say nothing about the catalog, and they are not
// in the access log.
func TestHealthChecks(t *testing.T) {
	srv, logs, _, _ := observedServer(t)
	for _, c := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", service.PathHealthz, http.StatusOK, `{"status":"live"}`},
		{"GET", service.PathReadyz, http.StatusOK, `{"status":"ready"}`},
		{"HEAD", service.PathReadyz, http.StatusOK, ``},
		{"POST", service.PathHealthz, http.StatusMethodNotAllowed, `{"status":"method_not_allowed"}`},
	} {
		res := send(t, srv, c.method, c.path, "", "health", nil)
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode != c.status || strings.TrimSpace(string(raw)) != c.body {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, res.StatusCode, raw, c.status, c.body)
		}
	}
	if logs.Len() != 0 {
		t.Errorf("health checks were logged: %s", logs)
	}
}
