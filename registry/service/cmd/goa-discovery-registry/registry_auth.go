package main

// Who may use "registry serve". It requires credentials unless told
// --insecure, which it accepts only on a loopback address: bearer tokens
// with scopes from a file (--credentials) or an environment variable
// (--credentials-env), and client certificates verified against a CA
// (--client-ca, with --tls-cert and --tls-key), named in the same
// credentials by their common name. See package registry/access.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
)

// registryAuthFlags are the security arguments of "registry serve".
type registryAuthFlags struct {
	credentials    string
	credentialsEnv string
	insecure       bool
	tlsCert        string
	tlsKey         string
	clientCA       string
}

// check reports a contradiction or omission among the flags; addr is the
// listening address.
func (f *registryAuthFlags) check(addr string) error {
	switch {
	case f.insecure && (f.credentials != "" || f.credentialsEnv != ""):
		return errors.New("--insecure admits everyone; it cannot be given with --credentials or --credentials-env")
	case f.insecure && !loopback(addr):
		return fmt.Errorf("--insecure is only for a trusted loopback address, not %q; give --credentials or --credentials-env", addr)
	case !f.insecure && f.credentials == "" && f.credentialsEnv == "":
		return errors.New("credentials are required: give --credentials FILE or --credentials-env VAR (or --insecure on a loopback address)")
	case f.credentials != "" && f.credentialsEnv != "":
		return errors.New("give --credentials or --credentials-env, not both")
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key go together")
	case f.clientCA != "" && f.tlsCert == "":
		return errors.New("--client-ca needs --tls-cert and --tls-key: client certificates travel over TLS")
	}
	return nil
}

// loopback reports whether addr listens only on a loopback interface.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// options returns the service options the flags ask for.
func (f *registryAuthFlags) options() ([]service.Option, error) {
	if f.insecure {
		return []service.Option{service.WithInsecure()}, nil
	}
	var creds *access.Credentials
	var err error
	if f.credentials != "" {
		creds, err = access.Load(f.credentials)
	} else {
		text := os.Getenv(f.credentialsEnv)
		if text == "" {
			return nil, fmt.Errorf("--credentials-env %s: the variable is empty or unset", f.credentialsEnv)
		}
		creds, err = access.Parse(strings.NewReader(text))
		if err != nil {
			err = fmt.Errorf("credentials in $%s: %w", f.credentialsEnv, err)
		}
	}
	if err != nil {
		return nil, err
	}
	return []service.Option{service.WithCredentials(creds)}, nil
}

// tlsConfig returns the server's TLS configuration, or nil to serve plain
// HTTP.
func (f *registryAuthFlags) tlsConfig() (*tls.Config, error) {
	if f.tlsCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if f.clientCA != "" {
		pem, err := os.ReadFile(f.clientCA)
		if err != nil {
			return nil, fmt.Errorf("--client-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--client-ca %s: no PEM certificate", f.clientCA)
		}
		// A client may still authenticate with a bearer token instead.
		cfg.ClientAuth, cfg.ClientCAs = tls.VerifyClientCertIfGiven, pool
	}
	return cfg, nil
}
