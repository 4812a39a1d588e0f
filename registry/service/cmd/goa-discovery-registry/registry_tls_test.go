package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// testCert is a certificate and its key, signed by parent (self-signed
// when parent is nil).
type testCert struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	der  []byte
}

func newTestCert(t *testing.T, cn string, serial int64, parent *testCert, tmpl x509.Certificate) *testCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber, tmpl.Subject = big.NewInt(serial), pkix.Name{CommonName: cn}
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	signer, signerKey := &tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCert{cert: cert, key: key, der: der}
}

// writePEM writes the certificate and its key as PEM files in dir.
func (c *testCert) writePEM(t *testing.T, dir, name string) (certPath, keyPath string) {
	t.Helper()
	keyDER, err := x509.MarshalECPrivateKey(c.key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certPath, keyPath
}

// TestRegistryServeMutualTLS serves the registry over HTTPS with client
// certificates verified against a CA: a certificate the credentials name
// is admitted, a bearer token still works over the same TLS, and a client
// with neither is refused.
func TestRegistryServeMutualTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newTestCert(t, "test CA", 1, nil, x509.Certificate{IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign})
	server := newTestCert(t, "registry", 2, ca, x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}})
	ops := newTestCert(t, "ops.internal", 3, ca, x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	caPath, _ := ca.writePEM(t, dir, "ca")
	certPath, keyPath := server.writePEM(t, dir, "server")
	creds := filepath.Join(dir, "credentials")
	if err := os.WriteFile(creds, []byte("ops cert:ops.internal consume\ntests token:"+cliTestToken+" consume\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url, stop := startRegistry(t, "--credentials", creds, "--tls-cert", certPath, "--tls-key", keyPath, "--client-ca", caPath)
	defer stop()
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	clientCert := tls.Certificate{Certificate: [][]byte{ops.der}, PrivateKey: ops.key}
	for _, tc := range []struct {
		name  string
		certs []tls.Certificate
		token string
		want  error
	}{
		{"client certificate", []tls.Certificate{clientCert}, "", nil},
		{"bearer token over TLS", nil, cliTestToken, nil},
		{"neither", nil, "", registry.ErrUnauthenticated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: tc.certs, MinVersion: tls.VersionTLS12}}}
			opts := []registry.ClientOption{registry.WithHTTPClient(hc)}
			if tc.token != "" {
				opts = append(opts, registry.WithBearerToken(tc.token))
			}
			client, err := registry.NewClient(url, opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.ListToolsets(context.Background())
			if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("list: %v, want %v", err, tc.want)
			}
		})
	}
}

// TestRegistryOperatorMutualTLS runs "registry ls" over https with a client
// certificate, and without one.
func TestRegistryOperatorMutualTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newTestCert(t, "test CA", 1, nil, x509.Certificate{IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign})
	server := newTestCert(t, "registry", 2, ca, x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}})
	ops := newTestCert(t, "ops.internal", 3, ca, x509.Certificate{ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	caPath, _ := ca.writePEM(t, dir, "ca")
	certPath, keyPath := server.writePEM(t, dir, "server")
	opsCert, opsKey := ops.writePEM(t, dir, "ops")
	creds := filepath.Join(dir, "credentials")
	if err := os.WriteFile(creds, []byte("ops cert:ops.internal inspect\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url, stop := startRegistry(t, "--credentials", creds, "--tls-cert", certPath, "--tls-key", keyPath, "--client-ca", caPath)
	defer stop()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"client certificate", []string{"--tls-cert", opsCert, "--tls-key", opsKey}, 0, "generation 0, 0 toolsets"},
		{"none", nil, 1, "unauthenticated"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"ls", "--url", url, "--tls-ca", caPath}, tc.args...), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("%s: exit %d, output %q; want %d and %q", tc.name, code, stdout.String()+stderr.String(), tc.code, tc.want)
		}
	}
}
