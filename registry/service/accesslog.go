package service

// The access log, request metrics and request spans of the HTTP API. Every
// request but the health checks goes through observeRequests, outermost, so
// that a request refused for its credentials is recorded like any other.
// Handlers add what they learn (the principal, the scope checked, the
// toolset and tool named) to the request's record through noteRequest; the
// record is written once the answer is sent: one slog record, one count and
// one latency by route and outcome, one span.
//
// A record never holds a credential, a registration token, a payload or a
// result: only the names below, an outcome code and timings.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
)

// RequestIDHeader carries a request's id: the caller's, when it gives a
// valid one (1 to 64 letters, digits, '-', '_' or '.'), otherwise one the
// registry makes. The answer carries it back, and the access log records it.
const RequestIDHeader = "X-Request-Id"

// The outcome of a request whose client went away before its answer, and
// the status the access log, metrics and span give it (nginx's "client
// closed request"): logged at INFO, as nothing failed; the call it asked
// for goes on, and a retry finds its result.
const (
	OutcomeClientGone = "client_gone"
	StatusClientGone  = 499
)

// Routes of the access log and metrics: the operation a request asks for.
var routes = map[string]string{
	http.MethodPost + " " + registry.PathToolsets: "publish",
	http.MethodGet + " " + registry.PathToolsets:  "list",
	http.MethodPost + " " + registry.PathResolve:  "resolve",
	http.MethodPost + " " + registry.PathWithdraw: "withdraw",
	http.MethodPost + " " + registry.PathCalls:    "call",
	http.MethodPost + " " + registry.PathRenew:    "renew",
	http.MethodGet + " " + registry.PathCalls:     "calls",
	http.MethodGet + " " + PathRegistrations:      "registrations",
}

// routeOf names the route of r; "other" for a request no route serves.
func routeOf(r *http.Request) string {
	if name, ok := routes[r.Method+" "+r.URL.Path]; ok {
		return name
	}
	return "other"
}

// requestRecord is what the access log says of one request.
type requestRecord struct {
	principal string
	scope     string
	toolset   string // name, or name@version when the request names one
	tool      string
	callID    string
}

type requestRecordKey struct{}

// noteRequest returns the record of the request of ctx, or a record that
// goes nowhere for a request made without the Handler.
func noteRequest(ctx context.Context) *requestRecord {
	if rec, ok := ctx.Value(requestRecordKey{}).(*requestRecord); ok {
		return rec
	}
	return &requestRecord{}
}

// noteDecoded records the names a decoded request body gives.
func noteDecoded(ctx context.Context, v any) {
	rec := noteRequest(ctx)
	switch req := v.(type) {
	case *registry.PublishRequest:
		rec.toolset = versioned(req.Toolset.Name, req.Toolset.Version)
	case *registry.WithdrawRequest:
		rec.toolset = req.Toolset
	case *registry.RenewRequest:
		rec.toolset = req.Toolset
	case *registry.CallRequest:
		rec.toolset, rec.tool, rec.callID = req.Tool.Toolset(), string(req.Tool), req.CallID
	case *registry.ResolveRequest:
		names := make([]string, len(req.Toolsets))
		for i, ref := range req.Toolsets {
			names[i] = versioned(ref.Name, ref.Version)
		}
		rec.toolset = strings.Join(names, ",")
	}
}

// noteAuthorized records the principal and the scope a request was checked
// against.
func noteAuthorized(ctx context.Context, p *access.Principal, a access.Action, toolset string) {
	rec := noteRequest(ctx)
	if p != nil {
		rec.principal = p.Name
	}
	rec.scope = string(a)
	if a != access.Consume && a != access.Inspect && toolset != "" {
		rec.scope += ":" + toolset
	}
}

func versioned(name, version string) string {
	if version == "" {
		return name
	}
	return name + "@" + version
}

// recordingWriter keeps the status of an answer and, for an error, the
// start of its body, where the error's code is.
type recordingWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *recordingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status >= 400 && w.body.Len() < 4096 {
		w.body.Write(b[:min(len(b), 4096-w.body.Len())])
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush lets a handler flush through the recorder.
func (w *recordingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// outcome is "ok" for an answer below 400, else the error body's code
// (registry.Code), or "http_<status>" for one without it.
func (w *recordingWriter) outcome() string {
	if w.status < 400 {
		return "ok"
	}
	var body registry.ErrorBody
	if json.Unmarshal(w.body.Bytes(), &body) == nil && body.Error != nil && body.Error.Code != "" {
		return string(body.Error.Code)
	}
	return "http_" + strconv.Itoa(w.status)
}

// requestID returns the caller's request id when valid, else a new one.
func requestID(r *http.Request) string {
	if id := r.Header.Get(RequestIDHeader); validRequestID(id) {
		return id
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// observeRequests records every request next serves, once its answer is
// sent: one access log record, one count and one latency by route and
// outcome, one span; never a credential, token, payload or result. It is
// the outermost handler but for the health checks, so that a request
// refused for its credentials is recorded too.
func (s *Service) observeRequests(next http.Handler) http.Handler {
	t := s.telemetry
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r)
		route := routeOf(r)
		w.Header().Set(RequestIDHeader, id)
		rec := &requestRecord{}
		ctx, span := t.tracer.Start(context.WithValue(r.Context(), requestRecordKey{}, rec), "registry "+route, trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		rw := &recordingWriter{ResponseWriter: w}
		next.ServeHTTP(rw, r.WithContext(ctx))
		if rw.status == 0 {
			rw.status = http.StatusOK
		}
		elapsed := time.Since(start)
		outcome := rw.outcome()
		if rw.status >= 500 && r.Context().Err() != nil {
			// The client went away before its answer (a call it
			// abandoned): nothing failed, and nobody reads this answer.
			outcome, rw.status = OutcomeClientGone, StatusClientGone
		}
		attrs := metric.WithAttributes(attribute.String("route", route), attribute.String("outcome", outcome))
		t.requests.Add(ctx, 1, attrs)
		t.latency.Record(ctx, elapsed.Seconds(), attrs)
		if span.IsRecording() {
			span.SetAttributes(attribute.String("goa_discovery.registry.route", route), attribute.String("goa_discovery.registry.outcome", outcome),
				attribute.Int("http.response.status_code", rw.status), attribute.String("goa_discovery.registry.request_id", id))
			if rw.status >= 500 {
				span.SetStatus(codes.Error, outcome)
			}
		}
		level := slog.LevelInfo
		switch {
		case outcome == OutcomeClientGone:
		case rw.status >= 500:
			level = slog.LevelError
		case rw.status >= 400:
			level = slog.LevelWarn
		}
		if !s.log.Enabled(ctx, level) {
			return
		}
		msg := "registry " + route
		switch {
		case outcome == OutcomeClientGone:
			msg += " abandoned by its client"
		case rw.status >= 400:
			msg += " refused"
		}
		logAttrs := make([]slog.Attr, 0, 10)
		logAttrs = append(logAttrs, slog.String("request_id", id), slog.String("route", route))
		for _, kv := range [...]struct{ k, v string }{{"principal", rec.principal}, {"scope", rec.scope}, {"toolset", rec.toolset}, {"tool", rec.tool}, {"call_id", rec.callID}} {
			if kv.v != "" { // a field the request did not get to, or does not name
				logAttrs = append(logAttrs, slog.String(kv.k, kv.v))
			}
		}
		logAttrs = append(logAttrs, slog.String("outcome", outcome), slog.Int("status", rw.status), slog.Duration("duration", elapsed))
		s.log.LogAttrs(ctx, level, msg, logAttrs...)
	})
}
