package service_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

func TestEndpointAllowlist(t *testing.T) {
	h := newHarness(t, service.WithEndpointAllowlist("https://tools.internal/v1", "http://127.0.0.1:9000"))
	cases := []struct {
		endpoint string
		allowed  bool
	}{
		{"https://tools.internal/v1", true},
		{"https://tools.internal/v1/records", true},
		{"https://TOOLS.internal/v1/records", true},
		{"https://tools.internal/v10", false},
		{"https://tools.internal/", false},
		{"http://tools.internal/v1/records", false},
		{"https://tools.internal:8443/v1/records", false},
		{"https://evil.example/v1/records", false},
		{"http://127.0.0.1:9000/anything", true},
		{"http://127.0.0.1:9001/anything", false},
	}
	for i, tc := range cases {
		_, err := h.client.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: fmt.Sprintf("r%d", i), Endpoint: tc.endpoint})
		if tc.allowed != (err == nil) || (err != nil && !errors.Is(err, registry.ErrEndpointRefused)) {
			t.Errorf("endpoint %s: %v, want allowed %v", tc.endpoint, err, tc.allowed)
		}
	}
	if _, err := service.New(service.WithLoopbackEndpoints(), service.WithEndpointAllowlist("ftp://x")); err == nil {
		t.Error("allowlist entry with another scheme accepted")
	}
}

// selfServer serves a registry on a loopback port that it knows as its
// own address.
func selfServer(t *testing.T, opts ...service.Option) (*service.Service, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(append([]service.Option{service.WithInsecure(), service.WithSelfAddress(ln.Addr().String())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: svc.Handler()}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close(); _ = svc.Close() })
	return svc, ln.Addr().String()
}

func TestSelfAddressRefused(t *testing.T) {
	svc, addr := selfServer(t)
	_, port, _ := net.SplitHostPort(addr)
	for _, endpoint := range []string{
		"http://" + addr + registry.PathCalls,
		"http://localhost:" + port + registry.PathCalls,
		"http://LOCALHOST:" + port + "/",
		"http://127.0.0.2:" + port + "/",
		"http://[::1]:" + port + "/",
	} {
		_, err := svc.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r-self", Endpoint: endpoint})
		if !errors.Is(err, registry.ErrEndpointRefused) || !strings.Contains(err.Error(), "the registry's own address") {
			t.Errorf("endpoint %s: %v, want refused as the registry's own address", endpoint, err)
		}
	}
	p := newProvider(t)
	if _, err := svc.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: p.server.URL}); err != nil {
		t.Fatalf("a provider on another port: %v", err)
	}
}

// TestCallsIntoTheRegistryCannotHoldSlots is the attack: a toolset
// whose endpoint is the registry's own /v1/calls (here on an address the
// registry was not told is its own, as behind a proxy), called as often as
// there are forwarding slots. Each forwarded call is refused at once, so
// the slots are free for the next legitimate call.
func TestCallsIntoTheRegistryCannotHoldSlots(t *testing.T) {
	svc, err := service.New(service.WithInsecure(), service.WithMaxInFlight(4))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	defer svc.Close()
	client, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	loop := recordsToolset("1.0.0")
	loopReg, err := client.Publish(ctx, &registry.PublishRequest{Toolset: loop, Revision: "r1", Endpoint: srv.URL + registry.PathCalls + "?key=s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = client.CallResolvedTool(ctx, lookup(fmt.Sprintf("loop-%d", i), loopReg.Registration.Token, "a"))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		var e *registry.Error
		if !errors.As(err, &e) {
			t.Fatalf("looping call: %v", err)
		}
		if e.Code == registry.CodeProviderUnavailable && (strings.Contains(e.Message, "s3cret") || strings.Contains(e.Message, srv.Listener.Addr().String())) {
			t.Fatalf("error %q names the endpoint", e.Message)
		}
		if e.Code != registry.CodeProviderUnavailable && e.Code != registry.CodeOverloaded {
			t.Fatalf("looping call: %v", err)
		}
	}
	p := newProvider(t)
	good := publish(t, client, p, "2.0.0", "r2")
	if _, err := client.CallResolvedTool(ctx, lookup("good", good.Token, "a")); err != nil {
		t.Fatalf("a legitimate call after the loop attempts: %v", err)
	}
}

// TestForwardErrorsNameTheToolNotTheEndpoint: whatever goes wrong reaching
// a provider, the error a consumer (and so a model) sees names the tool,
// never the endpoint's URL, query string or address, nor the provider's
// own error text.
func TestForwardErrorsNameTheToolNotTheEndpoint(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":{"code":"internal","message":"open /srv/provider/secrets.db: permission denied"}}`))
	}))
	defer failing.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`stack trace at /srv/provider/main.go:12`))
	}))
	defer garbage.Close()
	cases := []struct {
		name, endpoint, why string
	}{
		{"connection refused", closedURL + "/tools?api_key=s3cret", "it could not be reached"},
		{"error status", failing.URL + "/tools?api_key=s3cret", `it answered status 500, code "internal"`},
		{"not a provider answer", garbage.URL + "/tools?api_key=s3cret", "its answer is not a provider result"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			res, err := h.client.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: fmt.Sprintf("r%d", i), Endpoint: tc.endpoint})
			if err != nil {
				t.Fatal(err)
			}
			_, err = h.client.CallResolvedTool(context.Background(), lookup("c1", res.Registration.Token, "a"))
			var e *registry.Error
			if !errors.As(err, &e) || e.Code != registry.CodeProviderUnavailable {
				t.Fatalf("call error %v, want provider_unavailable", err)
			}
			host := strings.TrimPrefix(strings.SplitN(tc.endpoint, "/tools", 2)[0], "http://")
			for _, leak := range []string{"s3cret", "api_key", host, "127.0.0.1", "/srv/provider", "http://"} {
				if strings.Contains(e.Message, leak) {
					t.Fatalf("message %q reveals %q", e.Message, leak)
				}
			}
			if !strings.Contains(e.Message, `provider of "records.lookup"`) || !strings.Contains(e.Message, tc.why) {
				t.Fatalf("message %q does not name the tool and %q", e.Message, tc.why)
			}
		})
	}
}

// TestStoreErrorsHideTheDataDirectory: a store that cannot persist a
// change refuses it with an internal error whose message names the toolset
// and not the data directory; the cause stays in process.
func TestStoreErrorsHideTheDataDirectory(t *testing.T) {
	dir := t.TempDir()
	svc, err := service.New(service.WithInsecure(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	defer svc.Close()
	// The toolsets directory becomes a file: every write there fails.
	if err := os.RemoveAll(filepath.Join(dir, "toolsets")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "toolsets"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProvider(t)
	req := &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: p.server.URL}
	_, inProcess := svc.Publish(context.Background(), req)
	var cause *os.PathError
	if !errors.Is(inProcess, registry.ErrInternal) || !errors.As(inProcess, &cause) {
		t.Fatalf("in-process publish error %v, want internal with the path error as its cause", inProcess)
	}
	client, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Publish(context.Background(), req)
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeInternal {
		t.Fatalf("publish error %v, want internal", err)
	}
	if strings.Contains(e.Message, dir) || strings.Contains(inProcess.Error(), dir) || !strings.Contains(e.Message, `publish toolset "records"`) {
		t.Fatalf("message %q (in process %q) reveals the data directory or does not name the toolset", e.Message, inProcess)
	}
}

// TestForwardTLS: an https provider whose certificate the default roots do
// not trust is unreachable until WithForwardTLS gives the root.
func TestForwardTLS(t *testing.T) {
	p := &provider{}
	p.server = httptest.NewTLSServer(registry.ProviderHandler(registry.ExecutorFunc(p.execute), 0))
	defer p.server.Close()
	roots := x509.NewCertPool()
	roots.AddCert(p.server.Certificate())
	for _, tc := range []struct {
		opts []service.Option
		want error
	}{
		{nil, registry.ErrProviderUnavailable},
		{[]service.Option{service.WithForwardTLS(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12})}, nil},
	} {
		h := newHarness(t, tc.opts...)
		reg := publish(t, h.client, p, "1.0.0", "r1")
		_, err := h.client.CallResolvedTool(context.Background(), lookup("c1", reg.Token, "a"))
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Fatalf("call over TLS: %v, want %v", err, tc.want)
		}
	}
}
