package service

// Endpoint rules. A publisher names the URL its tools run at and the
// registry forwards calls there, so without rules a publisher could point
// a tool at anything the registry can reach: an internal service, or the
// registry's own /v1/calls, where each forwarded call would hold a
// forwarding slot while it waits for itself. The registry therefore
//
//   - normalizes every endpoint (registry.NormalizeEndpoint) and checks,
//     stores and forwards to the normalized form;
//   - accepts only endpoints under an allowlist, when one is given
//     (WithEndpointAllowlist);
//   - refuses addresses inside the registry's network unless allowed
//     explicitly (addresses.go);
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

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// ForwardedHeader marks a call a registry forwards to a provider. A
// registry refuses every request that carries it.
const ForwardedHeader = "Goa-Discovery-Forwarded"

// endpointRules are a service's endpoint rules.
type endpointRules struct {
	allow    []string // normalized prefixes; nil: any endpoint
	loopback bool     // loopback addresses allowed without an allowlist
	self     []hostPort
	local    map[string]bool // this machine's IP addresses, for an unspecified self host
}

type hostPort struct {
	host string // "" for an unspecified address (every interface)
	port string
}

// WithEndpointAllowlist accepts only provider endpoints under one of the
// prefixes: an absolute http or https URL whose scheme and host (with port)
// an endpoint must match exactly and whose path must be a prefix of the
// endpoint's path at a segment boundary ("https://tools.internal/v1"
// admits "https://tools.internal/v1/records", not ".../v10"). Prefixes
// and endpoints are compared in their normalized form
// (registry.NormalizeEndpoint), so "https://tools.internal/v1/../admin" is
// not under the prefix. An allowlist names the providers explicitly, so
// endpoints under it may reach private and loopback addresses (see
// addresses.go); without one, only public addresses are accepted, and
// loopback ones with WithLoopbackEndpoints or WithInsecure.
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
	r := &endpointRules{loopback: o.loopback || o.insecure}
	for _, p := range o.allowlist {
		n, err := registry.NormalizeEndpoint(p)
		if err != nil {
			return nil, fmt.Errorf("registry service: endpoint allowlist: %w", err)
		}
		if strings.Contains(n, "?") {
			return nil, fmt.Errorf("registry service: endpoint allowlist entry %q has a query", p)
		}
		r.allow = append(r.allow, n)
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

// check returns the normalized form of endpoint (registry.NormalizeEndpoint),
// or why it may not be published.
func (r *endpointRules) check(toolset, endpoint string) (string, error) {
	n, err := registry.NormalizeEndpoint(endpoint)
	if err != nil {
		return "", registry.Errorf(registry.CodeEndpointRefused, "toolset %q: %v", toolset, err)
	}
	if r.allow != nil && !r.allowed(n) {
		return "", registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint is under no prefix of the registry's endpoint allowlist", toolset)
	}
	u, err := url.Parse(n)
	if err != nil {
		return "", registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint: %v", toolset, err)
	}
	if err := r.hostAllowed(u.Hostname()); err != nil {
		return "", registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint host %v", toolset, err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if r.reachesSelf(u.Hostname(), port) {
		return "", registry.Errorf(registry.CodeEndpointRefused, "toolset %q: endpoint is the registry's own address; a registry does not forward calls to itself", toolset)
	}
	return n, nil
}

// allowed reports whether a normalized endpoint is under the allowlist.
func (r *endpointRules) allowed(endpoint string) bool {
	for _, a := range r.allow {
		if registry.EndpointUnder(endpoint, a) {
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
// default transport's settings (without a proxy) and the TLS configuration
// given, dialing only what the address rules allow and never the
// registry's own addresses, and following no redirects (a redirect could
// lead anywhere).
func newForwardClient(r *endpointRules, tlsConfig *tls.Config) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if tlsConfig != nil {
		tr.TLSClientConfig = tlsConfig.Clone()
	}
	tr.DialContext = newGuardedDialer(r).DialContext
	tr.Proxy = nil // a proxy would dial the endpoint unchecked
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
