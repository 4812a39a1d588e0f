package service

// Admission of HTTP requests before their bodies are read. A request's
// body is where a caller can make the registry wait (a body trickled a
// byte at a time holds a connection slot) and work (a large body is
// decoded whole), so before a byte of it is read the Handler
//
//   - authorizes the action of the route (publish, call, consume) against
//     the principal's scopes: a principal with no scope for that action on
//     any toolset is refused 403 at once; the toolset the body names is
//     checked once it is read (a publish body's outline, before it is
//     decoded: handlePublish) or decoded;
//   - bounds the requests each principal has in flight (its share,
//     WithMaxRequestsPerPrincipal), so that no principal can hold every
//     connection slot: a request beyond its principal's share is refused
//     overloaded (503, Retry-After) at once;
//   - sets a deadline for reading the body (WithBodyReadTimeout).
//
// A request refused here closes its connection without reading its body
// (refuseUnread). Without credentials (WithInsecure) the share is per
// remote IP address.

import (
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
)

// Defaults of the HTTP admission.
const (
	// DefaultMaxRequestsPerPrincipal is a quarter of
	// DefaultServerLimits.MaxConns.
	DefaultMaxRequestsPerPrincipal = 256
	// DefaultBodyReadTimeout bounds reading a request body from the end of
	// its headers: DefaultServerLimits.ReadTimeout less its
	// ReadHeaderTimeout, so the two together stay within the read timeout.
	DefaultBodyReadTimeout = 25 * time.Second
)

// WithMaxRequestsPerPrincipal bounds the requests one principal (one
// remote address under WithInsecure) has in the Handler at once; see
// share.go. Keep it well below the server's connection limit
// (ServerLimits.MaxConns) so that other principals always find slots.
func WithMaxRequestsPerPrincipal(n int) Option { return func(o *options) { o.maxPerPrincipal = n } }

// WithBodyReadTimeout bounds reading a request's body, from the end of its
// headers. It shortens, never extends, the server's own read timeout when
// it is less than what remains of it.
func WithBodyReadTimeout(d time.Duration) Option { return func(o *options) { o.bodyTimeout = d } }

// routeAction is the action a route asks for, "" for a route that needs
// none (an unknown route, answered 404 or 405 without reading the body).
func routeAction(r *http.Request) access.Action {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == registry.PathToolsets:
		return access.Consume
	case r.Method != http.MethodPost:
		return ""
	}
	switch r.URL.Path {
	case registry.PathToolsets, registry.PathWithdraw, registry.PathRenew:
		return access.Publish
	case registry.PathCalls:
		return access.Call
	case registry.PathResolve:
		return access.Consume
	}
	return ""
}

// shares counts the requests each principal has in flight.
type shares struct {
	mu      sync.Mutex
	max     int
	inUse   map[string]int
	timeout time.Duration
}

func (sh *shares) take(key string) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.inUse[key] >= sh.max {
		return false
	}
	sh.inUse[key]++
	return true
}

func (sh *shares) give(key string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.inUse[key]--; sh.inUse[key] <= 0 {
		delete(sh.inUse, key)
	}
}

// admitRequest wraps next, which runs authenticated requests (the
// principal in their context unless the service is insecure), with the
// checks made before a body is read: the route's action against the
// principal's scopes, the principal's share of the requests in flight, and
// the deadline for reading the body.
func (s *Service) admitRequest(next http.Handler) http.Handler {
	sh := &shares{max: s.opts.maxPerPrincipal, inUse: map[string]int{}, timeout: s.opts.bodyTimeout}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := routeAction(r)
		if a == "" {
			next.ServeHTTP(w, r)
			return
		}
		key := ""
		if p, _ := r.Context().Value(principalKey{}).(*access.Principal); p != nil {
			if err := p.AuthorizeAny(a); err != nil {
				// The toolset is in the body, which is never read: the
				// access record names the action alone.
				noteAuthorized(r.Context(), p, a, "")
				refuseUnread(w, registry.Errorf(registry.CodeForbidden, "%s", trimForbidden(err)))
				return
			}
			key = "principal " + p.Name
			// The principal holds a slot from here: a request cut
			// before its body is decoded still names it.
			noteRequest(r.Context()).principal = p.Name
		} else {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				host = r.RemoteAddr
			}
			key = "address " + host
		}
		if !sh.take(key) {
			e := registry.Errorf(registry.CodeOverloaded, "%d requests of this caller are in flight, its share of the registry; retry once one has ended", sh.max)
			e.RetryAfter = DefaultRetryAfter
			refuseUnread(w, e)
			return
		}
		defer sh.give(key)
		if d := bodyDeadline(r, sh.timeout); r.Method == http.MethodPost && d > 0 {
			// An error means the connection does not support deadlines
			// (a test's recorder); the server's own timeouts then hold.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		}
		next.ServeHTTP(w, r)
	})
}

// bodyDeadline is how long reading r's body may take from now: d, or less
// when the server serving r has a read timeout that would end sooner. The
// server's deadline for a request is at most its ReadTimeout after the
// request's first byte, which came at most ReadHeaderTimeout ago, so what
// remains of it is at least their difference; 0 when that cannot be known
// (the server's own deadline then holds).
func bodyDeadline(r *http.Request, d time.Duration) time.Duration {
	srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
	if !ok || srv.ReadTimeout <= 0 {
		return d
	}
	hdr := srv.ReadHeaderTimeout
	if hdr <= 0 {
		hdr = srv.ReadTimeout
	}
	return max(0, min(d, srv.ReadTimeout-hdr))
}

// refuseUnread answers e to a request whose body is not read, and closes
// the connection without reading the body either: net/http drains an
// unread body of less than 256 KiB before closing, which a client that
// trickles it would make last until the read timeout. The read deadline
// set to now makes that drain fail at once; the answer is written first.
func refuseUnread(w http.ResponseWriter, e *registry.Error) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	registry.WriteError(w, e)
}
