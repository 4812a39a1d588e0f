package service_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// countingBody is a request body that records how many of its bytes were
// read.
type countingBody struct {
	r    io.Reader
	read atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read.Add(int64(n))
	return n, err
}

func (b *countingBody) Close() error { return nil }

// TestRefusedBeforeTheBodyIsRead: a request whose principal has no scope
// for its route's action on any toolset is refused 403 before a byte of
// its body is read, however large; so is one without credentials (401).
// On the code before, a consume-only principal's 4 MB publish was decoded
// whole before the 403.
func TestRefusedBeforeTheBodyIsRead(t *testing.T) {
	svc, err := service.New(service.WithCredentials(mustCredentials(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	h := svc.Handler()
	deep := `{"toolset":{"name":"x","tools":[{"name":"x.a","description":"d","payload":` + strings.Repeat(`{"items":`, 200_000) + `{}` + strings.Repeat(`}`, 200_000) + `}]},"revision":"r1","endpoint":"https://tools.example/x"}`
	cases := []struct {
		name, path, token string
		status            int
		message           string
	}{
		{"consume-only publishes", registry.PathToolsets, consumerToken, http.StatusForbidden, "reader has no scope publish on any toolset"},
		{"consume-only withdraws", registry.PathWithdraw, consumerToken, http.StatusForbidden, "reader has no scope publish on any toolset"},
		{"consume-only calls", registry.PathCalls, consumerToken, http.StatusForbidden, "reader has no scope call on any toolset"},
		{"publish-only resolves", registry.PathResolve, publisherToken, http.StatusForbidden, "records-provider has no scope consume on any toolset"},
		{"no credentials publishes", registry.PathToolsets, "", http.StatusUnauthorized, "no credentials"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := &countingBody{r: strings.NewReader(deep)}
			req := httptest.NewRequest(http.MethodPost, tc.path, nil)
			req.Body, req.ContentLength = body, int64(len(deep))
			req.Header.Set("Content-Type", "application/json")
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status || !bytes.Contains(rec.Body.Bytes(), []byte(tc.message)) {
				t.Fatalf("status %d, body %s; want %d saying %q", rec.Code, rec.Body, tc.status, tc.message)
			}
			if n := body.read.Load(); n != 0 {
				t.Fatalf("%d bytes of the %d-byte body were read before the refusal", n, len(deep))
			}
			if rec.Header().Get("Connection") != "close" {
				t.Fatalf("refusal without Connection: close: %v", rec.Header())
			}
		})
	}
}

// TestShareOfOnePrincipal: requests of one principal beyond its share are
// refused overloaded, with a Retry-After, before their bodies are read;
// another principal's request is served meanwhile, and the share frees as
// requests end.
func TestShareOfOnePrincipal(t *testing.T) {
	svc, err := service.New(service.WithCredentials(mustCredentials(t)), service.WithMaxRequestsPerPrincipal(2))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	h := svc.Handler()
	// Two resolves of the reader hold its share: their bodies block until
	// released.
	release := make(chan struct{})
	entered := make(chan struct{}, 2)
	done := make(chan int, 2)
	for range 2 {
		go func() {
			req := httptest.NewRequest(http.MethodPost, registry.PathResolve, io.NopCloser(&blockingReader{entered: entered, release: release, data: `{"toolsets":[{"name":"records"}]}`}))
			req.Header.Set("Authorization", "Bearer "+consumerToken)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			done <- rec.Code
		}()
	}
	<-entered
	<-entered
	serve := func(token, method, path string, body io.Reader) (*httptest.ResponseRecorder, *countingBody) {
		cb := &countingBody{r: body}
		req := httptest.NewRequest(method, path, cb)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec, cb
	}
	rec, cb := serve(consumerToken, http.MethodPost, registry.PathResolve, strings.NewReader(`{"toolsets":[{"name":"records"}]}`))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "2 requests of this caller are in flight") || cb.read.Load() != 0 {
		t.Fatalf("third resolve of the reader: %d %v %s, %d bytes read; want 503 overloaded with Retry-After, body unread", rec.Code, rec.Header(), rec.Body, cb.read.Load())
	}
	if rec, _ := serve(callerToken, http.MethodGet, registry.PathToolsets, http.NoBody); rec.Code != http.StatusOK {
		t.Fatalf("another principal's list while the reader's share is held: %d %s", rec.Code, rec.Body)
	}
	close(release)
	for range 2 {
		if code := <-done; code != http.StatusNotFound {
			t.Fatalf("a held resolve ended %d, want 404 (no such toolset)", code)
		}
	}
	if rec, _ := serve(consumerToken, http.MethodGet, registry.PathToolsets, http.NoBody); rec.Code != http.StatusOK {
		t.Fatalf("the reader's list once its share is free: %d %s", rec.Code, rec.Body)
	}
	for _, opt := range []service.Option{service.WithMaxRequestsPerPrincipal(0), service.WithBodyReadTimeout(0)} {
		if _, err := service.New(service.WithInsecure(), opt); err == nil {
			t.Error("a share or body timeout that is not positive is accepted")
		}
	}
}

// blockingReader signals entered at its first read, then blocks until
// release before it gives data.
type blockingReader struct {
	entered chan<- struct{}
	release <-chan struct{}
	data    string
	started bool
}

func (b *blockingReader) Read(p []byte) (int, error) {
	if !b.started {
		b.started = true
		b.entered <- struct{}{}
		<-b.release
	}
	if b.data == "" {
		return 0, io.EOF
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}
