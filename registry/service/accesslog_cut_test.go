package service_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// lockedBuffer is a log sink a test reads while the server writes to it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// record waits up to 10 s for the access record of request id.
func (b *lockedBuffer) record(t *testing.T, id string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b.mu.Lock()
		data := bytes.Clone(b.buf.Bytes())
		b.mu.Unlock()
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			var rec map[string]any
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec["request_id"] == id {
				return rec
			}
		}
	}
	t.Fatalf("no access record of %s", id)
	return nil
}

// TestAccessLogOfCutRequests: a call whose client went away before its
// answer is logged as client_gone (499) at INFO, not as an overloaded 503
// at ERROR; a body not read within the body timeout is answered and logged
// as body_timeout (408), naming the principal that held the slot.
func TestAccessLogOfCutRequests(t *testing.T) {
	logs := &lockedBuffer{}
	svc, err := service.New(service.WithCredentials(mustCredentials(t)), service.WithLoopbackEndpoints(),
		service.WithBodyReadTimeout(300*time.Millisecond),
		service.WithLogger(slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer func() {
		srv.Close()
		_ = svc.Close()
	}()
	started, release := make(chan struct{}, 1), make(chan struct{})
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(ctx context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		started <- struct{}{}
		<-release
		return json.RawMessage(`{"name":"x"}`), nil
	}), 0))
	defer provider.Close()
	defer close(release)
	pub, err := registry.NewClient(srv.URL, registry.WithBearerToken(publisherToken))
	if err != nil {
		t.Fatal(err)
	}
	res, err := pub.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: provider.URL})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("client gone", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		body, _ := json.Marshal(lookup("gone-1", res.Registration.Token, "a"))
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+registry.PathCalls, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+callerToken)
		req.Header.Set(service.RequestIDHeader, "gone-1")
		done := make(chan error, 1)
		go func() {
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
			}
			done <- err
		}()
		<-started
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("request = %v, want canceled", err)
		}
		rec := logs.record(t, "gone-1")
		for k, want := range map[string]any{"outcome": "client_gone", "status": float64(499), "level": "INFO", "principal": "agent", "call_id": "gone-1"} {
			if rec[k] != want {
				t.Errorf("%s = %v, want %v (record %v)", k, rec[k], want, rec)
			}
		}
	})

	t.Run("body timeout", func(t *testing.T) {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		// A body of 1,000 bytes that stops after 10.
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: registry\r\nAuthorization: Bearer %s\r\n%s: slow-1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"call_id\"", registry.PathCalls, callerToken, service.RequestIDHeader)
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		answer, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(answer.Body)
		if answer.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(raw), `"body_timeout"`) {
			t.Errorf("answer %d %s, want 408 body_timeout", answer.StatusCode, raw)
		}
		rec := logs.record(t, "slow-1")
		for k, want := range map[string]any{"outcome": "body_timeout", "status": float64(http.StatusRequestTimeout), "level": "WARN", "principal": "agent"} {
			if rec[k] != want {
				t.Errorf("%s = %v, want %v (record %v)", k, rec[k], want, rec)
			}
		}
	})
}
