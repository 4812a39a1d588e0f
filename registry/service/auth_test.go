package service_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

const (
	publisherToken = "publisher-0123456789abcdef0123456789abcdef"
	consumerToken  = "consumer-0123456789abcdef0123456789abcdef"
	callerToken    = "caller-0123456789abcdef0123456789abcdef"
	strangerToken  = "stranger-0123456789abcdef0123456789abcdef"
)

const testCredentials = `# name credential scopes
records-provider token:` + publisherToken + ` publish:records
reader token:` + consumerToken + ` consume
agent token:` + callerToken + ` consume call:records
ops cert:ops.internal publish:* consume
`

func mustCredentials(t testing.TB) *access.Credentials {
	t.Helper()
	c, err := access.Parse(strings.NewReader(testCredentials))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// authServer serves a registry with the test credentials on loopback.
func authServer(t *testing.T) *httptest.Server {
	t.Helper()
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithCredentials(mustCredentials(t)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	t.Cleanup(func() {
		srv.Close()
		_ = svc.Close()
	})
	return srv
}

func clientWith(t *testing.T, srv *httptest.Server, token string) *registry.Client {
	t.Helper()
	opts := []registry.ClientOption{registry.WithHTTPClient(srv.Client())}
	if token != "" {
		opts = append(opts, registry.WithBearerToken(token))
	}
	c, err := registry.NewClient(srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCredentialsScopes(t *testing.T) {
	srv := authServer(t)
	ctx := context.Background()
	p := newProvider(t)
	pub, err := clientWith(t, srv, publisherToken).Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: p.server.URL})
	if err != nil {
		t.Fatalf("publisher publishes its toolset: %v", err)
	}
	other := recordsToolset("1.0.0")
	other.Name = "tickets"
	for i := range other.Tools {
		other.Tools[i].Name = tools.Ident("tickets." + other.Tools[i].Name.Tool())
	}
	call := &registry.CallRequest{CallID: "c1", Tool: "records.lookup", Token: pub.Registration.Token, Payload: json.RawMessage(`{"id":"r1"}`)}
	cases := []struct {
		name  string
		token string
		do    func(c *registry.Client) error
		want  *registry.Error // nil: allowed
		part  string
	}{
		{"no credentials lists", "", func(c *registry.Client) error { _, err := c.ListToolsets(ctx); return err }, registry.ErrUnauthenticated, "no credentials"},
		{"unknown token lists", strangerToken, func(c *registry.Client) error { _, err := c.ListToolsets(ctx); return err }, registry.ErrUnauthenticated, "not known"},
		{"no credentials publishes", "", func(c *registry.Client) error {
			_, err := c.Publish(ctx, &registry.PublishRequest{Toolset: other, Revision: "r1", Endpoint: p.server.URL})
			return err
		}, registry.ErrUnauthenticated, ""},
		{"no credentials calls", "", func(c *registry.Client) error { _, err := c.CallResolvedTool(ctx, call); return err }, registry.ErrUnauthenticated, ""},
		{"publisher publishes another toolset", publisherToken, func(c *registry.Client) error {
			_, err := c.Publish(ctx, &registry.PublishRequest{Toolset: other, Revision: "r1", Endpoint: p.server.URL})
			return err
		}, registry.ErrForbidden, "records-provider has no scope publish:tickets"},
		{"publisher cannot consume", publisherToken, func(c *registry.Client) error { _, err := c.ListToolsets(ctx); return err }, registry.ErrForbidden, "no scope consume"},
		{"reader lists", consumerToken, func(c *registry.Client) error { _, err := c.ListToolsets(ctx); return err }, nil, ""},
		{"reader resolves", consumerToken, func(c *registry.Client) error {
			_, err := c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records"}})
			return err
		}, nil, ""},
		{"reader cannot call", consumerToken, func(c *registry.Client) error { _, err := c.CallResolvedTool(ctx, call); return err }, registry.ErrForbidden, "reader has no scope call on any toolset"},
		{"reader cannot withdraw", consumerToken, func(c *registry.Client) error {
			return c.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: pub.Registration.Token})
		}, registry.ErrForbidden, "reader has no scope publish on any toolset"},
		{"no credentials renews", "", func(c *registry.Client) error {
			_, err := c.Renew(ctx, &registry.RenewRequest{Toolset: "records", Token: pub.Registration.Token})
			return err
		}, registry.ErrUnauthenticated, ""},
		{"reader cannot renew", consumerToken, func(c *registry.Client) error {
			_, err := c.Renew(ctx, &registry.RenewRequest{Toolset: "records", Token: pub.Registration.Token})
			return err
		}, registry.ErrForbidden, "reader has no scope publish on any toolset"},
		{"agent calls", callerToken, func(c *registry.Client) error { _, err := c.CallResolvedTool(ctx, call); return err }, nil, ""},
		{"publisher withdraws its toolset", publisherToken, func(c *registry.Client) error {
			return c.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: pub.Registration.Token})
		}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do(clientWith(t, srv, tc.token))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.part) {
				t.Fatalf("error %v, want %v containing %q", err, tc.want, tc.part)
			}
			for _, secret := range []string{publisherToken, consumerToken, callerToken, strangerToken} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q repeats a token", err)
				}
			}
		})
	}
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("provider ran %d calls, want the agent's one", n)
	}
}

// TestUnauthenticatedBodyNotRead: a request without credentials is refused
// with 401 and a WWW-Authenticate challenge whatever its body.
func TestUnauthenticatedBodyNotRead(t *testing.T) {
	srv := authServer(t)
	// The request announces a 200 KiB body and sends none of it: the
	// answer must come without the service waiting for a byte of it. (An
	// HTTP client that sends the body races the service's refusal: the
	// service may close the connection while the body is still being
	// written, and the client then sees a reset, not the answer.)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	head := "POST " + registry.PathToolsets + " HTTP/1.1\r\nHost: " + srv.Listener.Addr().String() +
		"\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(200<<10) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("status %d, challenge %q; want 401 with a Bearer challenge", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

// TestNoCredentialsAdmitsNoOne: a service given neither credentials nor
// WithInsecure serves no request over HTTP.
func TestNoCredentialsAdmitsNoOne(t *testing.T) {
	svc, err := service.New(service.WithLoopbackEndpoints())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	c, _ := registry.NewClient(srv.URL, registry.WithBearerToken(consumerToken))
	if _, err := c.ListToolsets(context.Background()); !errors.Is(err, registry.ErrUnauthenticated) {
		t.Fatalf("list: %v, want unauthenticated", err)
	}
	if _, err := service.New(service.WithInsecure(), service.WithCredentials(mustCredentials(t))); err == nil {
		t.Fatal("both insecure and credentials accepted")
	}
}

// TestMutualTLS serves the registry over TLS with client certificates
// verified against a test CA (crypto/tls, on loopback): the certificate's
// common name selects the principal, an unknown one is refused.
func TestMutualTLS(t *testing.T) {
	ca, caKey := testCA(t)
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithCredentials(mustCredentials(t)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(svc.Handler())
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	srv.TLS = &tls.Config{ClientAuth: tls.VerifyClientCertIfGiven, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	defer srv.Close()
	for _, tc := range []struct {
		cn   string
		want error
	}{{"ops.internal", nil}, {"intruder", registry.ErrUnauthenticated}} {
		hc := srv.Client()
		tr := hc.Transport.(*http.Transport).Clone()
		tr.TLSClientConfig.Certificates = []tls.Certificate{testLeaf(t, ca, caKey, tc.cn)}
		c, err := registry.NewClient(srv.URL, registry.WithHTTPClient(&http.Client{Transport: tr}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListToolsets(context.Background())
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Fatalf("certificate %q: list error %v, want %v", tc.cn, err, tc.want)
		}
	}
}

func testCA(t *testing.T) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return ca, key
}

func testLeaf(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, cn string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
