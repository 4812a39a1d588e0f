package service

// Endpoint rules. A publisher names the URL its tools run at and the
// registry forwards calls there, so without rules a publisher could point
// a tool at anything the registry can reach: an internal service, or the
// registry's own /v1/calls, where each forwarded call would hold a
// forwarding slot while it waits for itself. The registry therefore
//
//   - accepts only endpoints under an allowlist, when one is given
//     (WithEndpointAllowlist);
//   - refuses endpoints that reach its own addresses (WithSelfAddress),
//     when published and again when the default forwarder dials, after
//     name resolution;
//   - marks every forwarded call (ForwardedHeader) and refuses any
//     request so marked, so that a call can never loop back into a
//     registry, whatever address or proxy leads there.

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// ForwardedHeader marks a call a registry forwards to a provider. A
// registry refuses every request that carries it.
const ForwardedHeader = "Goa-Discovery-Forwarded"

// endpointRules are a service's endpoint rules.
type endpointRules struct {
	allow []*url.URL // nil: any endpoint
	self  []hostPort
	local map[string]bool // this machine's IP addresses, for an unspecified self host
}

type hostPort struct {
	host string // "" for an unspecified address (every interface)
	port string
}

// WithEndpointAllowlist accepts only provider endpoints under one of the
// prefixes: an absolute http or https URL whose scheme and host (with port)
// an endpoint must match exactly and whose path must be a prefix of the
// endpoint's path at a segment boundary ("https://tools.internal/v1"
// admits "https://tools.internal/v1/records", not ".../v10"). Without it
// every endpoint is accepted that passes the other rules.
func WithEndpointAllowlist(prefixes ...string) Option {
	return func(o *options) { o.allowlist = append(o.allowlist, prefixes...) }
}

// WithSelfAddress names the host:port addresses the registry's HTTP server
// listens on (such as its listener's Addr().String(), or ":8080" for every
// interface); endpoints reaching them are refused.
func WithSelfAddress(addrs ...string) Option {
	return func(o *options) { o.self = append(o.self, addrs...) }
}

func buildRules(o *options) (*endpointRules, error) {
	r := &endpointRules{}
	for _, p := range o.allowlist {
		if err := registry.ValidateEndpoint(p); err != nil {
			return nil, fmt.Errorf("registry service: endpoint allowlist: %w", err)
		}
		u, _ := url.Parse(p)
		if u.RawQuery != "" {
			return nil, fmt.Errorf("registry service: endpoint allowlist entry %q has a query", p)
		}
		u.Path = strings.TrimSuffix(u.Path, "/")
		r.allow = append(r.allow, u)
	}
	for _, a := range o.self {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return nil, fmt.Errorf("registry service: self address %q: %w", a, err)
		}
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			host = ""
		}
		r.self = append(r.self, hostPort{host: strings.ToLower(host), port: port})
	}
	if len(r.self) > 0 {
		r.local = map[string]bool{}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if ipn, ok := a.(*net.IPNet); ok {
					r.local[ipn.IP.String()] = true
				}
			}
		}
	}
	return r, nil
}

// check reports why endpoint may not be published, or nil.
func (r *endpointRules) check(toolset, endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil {
		return registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint: %v", toolset, err)
	}
	if r.allow != nil && !r.allowed(u) {
		return registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint is under no prefix of the registry's endpoint allowlist", toolset)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if r.reachesSelf(u.Hostname(), port) {
		return registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint is the registry's own address; a registry does not forward calls to itself", toolset)
	}
	return nil
}

func (r *endpointRules) allowed(u *url.URL) bool {
	for _, a := range r.allow {
		if a.Scheme != u.Scheme || !strings.EqualFold(a.Host, u.Host) {
			continue
		}
		if a.Path == "" || u.Path == a.Path || strings.HasPrefix(u.Path, a.Path+"/") {
			return true
		}
	}
	return false
}

// reachesSelf reports whether host (a name or an IP) and port are one of
// the registry's own addresses.
func (r *endpointRules) reachesSelf(host, port string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	ip := net.ParseIP(host)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		ip = net.IPv4(127, 0, 0, 1) // such names are loopback (RFC 6761)
	}
	for _, s := range r.self {
		if s.port != port {
			continue
		}
		switch {
		case s.host == host:
			return true
		case s.host == "" && ip != nil && (ip.IsLoopback() || ip.IsUnspecified() || r.local[ip.String()]):
			return true
		case s.host != "" && ip != nil && ip.IsUnspecified():
			return true // 0.0.0.0 reaches a listener on any local address
		case s.host != "" && ip != nil && ip.IsLoopback() && net.ParseIP(s.host) != nil && net.ParseIP(s.host).IsLoopback():
			return true // 127.0.0.2 reaches a listener on 127.0.0.1 on Linux
		}
	}
	return false
}

// dialControl refuses connections to the registry's own addresses after
// name resolution, so that a name that resolves to the registry (or is
// made to, later) is caught too.
func (r *endpointRules) dialControl(_, address string, _ syscall.RawConn) error {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if r.reachesSelf(host, port) {
		return errSelfAddress
	}
	return nil
}

var errSelfAddress = errors.New("refused to connect to the registry's own address")

// WithForwardTLS sets the TLS configuration the default forwarder uses
// with https endpoints: the roots that verify providers, and a client
// certificate by which providers authenticate the registry.
func WithForwardTLS(c *tls.Config) Option { return func(o *options) { o.forwardTLS = c } }

// newForwardClient returns the HTTP client of the default forwarder: the
// default transport's settings and the TLS configuration given, with dials
// to the registry's own addresses refused and no redirects followed (a
// redirect could lead anywhere).
func newForwardClient(r *endpointRules, tlsConfig *tls.Config) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if tlsConfig != nil {
		tr.TLSClientConfig = tlsConfig.Clone()
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: r.dialControl}
	tr.DialContext = d.DialContext
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// refuseForwarded answers every request marked as a forwarded call.
func refuseForwarded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(ForwardedHeader) != "" {
			registry.WriteError(w, registry.Errorf(registry.CodeEndpointRefused, "a call forwarded by a registry reached a registry: a provider endpoint leads back into a registry"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
