package service

// Address rules. A provider's endpoint is where the registry sends calls,
// so an endpoint on an address inside the registry's network lets a
// publisher use the registry to reach what it could not reach itself: a
// cloud metadata service (169.254.169.254, fd00:ec2::254), a database on a
// private address, a service on loopback. The registry therefore classes
// every address an endpoint reaches:
//
//   - never forwarded to: unspecified (0.0.0.0, ::, and 0.0.0.0/8),
//     link-local (169.254.0.0/16, fe80::/10, where metadata services
//     live), the metadata addresses, multicast and broadcast;
//   - private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): only under
//     an endpoint allowlist (WithEndpointAllowlist, --allow-endpoint), which
//     names the providers explicitly;
//   - loopback (127/8, ::1, "localhost"): under an allowlist, or with
//     WithLoopbackEndpoints (which WithInsecure and --insecure imply);
//   - any other address: public, accepted.
//
// An IPv6 address that carries an IPv4 address by a translation or
// tunnelling convention reaches that IPv4 address through a gateway, so it
// is classed by what it carries: NAT64 (64:ff9b::/96, and the local-use
// 64:ff9b:1::/48 in every layout of RFC 6052, private at least), 6to4
// (2002::/16), IPv4-compatible (::a.b.c.d), IPv4-translated
// (::ffff:0:a.b.c.d) and Teredo (2001::/32, its server and its client). One
// that carries a loopback address is never forwarded to: it reaches the
// gateway's loopback, not this host's.
//
// An IP literal is checked at publish. A host name is resolved when a call
// is forwarded; every address it resolves to is checked before any is
// dialed, and the connection goes to a checked address, never to a name
// resolved again (which could answer differently: DNS rebinding).

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"
)

// WithLoopbackEndpoints accepts provider endpoints on loopback addresses
// without an endpoint allowlist: for a registry whose providers run on the
// same machine (a test, a single host). WithInsecure implies it.
func WithLoopbackEndpoints() Option { return func(o *options) { o.loopback = true } }

// addrClass is how the rules class an address.
type addrClass int

const (
	addrPublic addrClass = iota
	addrPrivate
	addrLoopback
	addrRefused
)

var (
	metadataAddrs = []netip.Addr{netip.MustParseAddr("fd00:ec2::254"), netip.MustParseAddr("169.254.169.254")}
	thisNetwork   = netip.MustParsePrefix("0.0.0.0/8")
	sharedSpace   = netip.MustParsePrefix("100.64.0.0/10") // carrier-grade NAT, RFC 6598
	broadcast     = netip.MustParseAddr("255.255.255.255")
)

// classify returns the class of an address and, for one not public, what
// it is.
func classify(a netip.Addr) (addrClass, string) {
	a = a.Unmap()
	if form, carried, localUse := embeddedIPv4(a); form != "" {
		class, what := addrPublic, ""
		if localUse {
			class, what = addrPrivate, "a local-use NAT64 address (64:ff9b:1::/48)"
		}
		for _, e := range carried {
			if localUse && thisNetwork.Contains(e) {
				continue // a layout this address does not use: its bytes there are zero
			}
			c, w := classify4(e)
			if c == addrLoopback {
				c = addrRefused
			}
			if c > class {
				class, what = c, fmt.Sprintf("a %s address carrying %s, %s", form, e, w)
			}
		}
		return class, what
	}
	return classify4(a)
}

// classify4 classes an address that carries no other.
func classify4(a netip.Addr) (addrClass, string) {
	for _, m := range metadataAddrs {
		if a == m {
			return addrRefused, "a cloud metadata address"
		}
	}
	switch {
	case a.IsUnspecified() || (a.Is4() && thisNetwork.Contains(a)):
		return addrRefused, "an unspecified address"
	case a.IsLinkLocalUnicast():
		return addrRefused, "a link-local address (where cloud metadata services answer)"
	case a.IsMulticast() || a == broadcast:
		return addrRefused, "a multicast or broadcast address"
	case a.IsLoopback():
		return addrLoopback, "a loopback address"
	case a.IsPrivate() || sharedSpace.Contains(a):
		return addrPrivate, "a private address"
	}
	return addrPublic, ""
}

var (
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local    = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	teredo        = netip.MustParsePrefix("2001::/32")
	ipv4Compat    = netip.MustParsePrefix("::/96")
	ipv4Translate = netip.MustParsePrefix("::ffff:0:0:0/96")
)

// embeddedIPv4 returns the convention by which an IPv6 address carries
// IPv4 addresses, and the addresses it carries ("" when it carries none);
// localUse is true for the local-use NAT64 prefix, whose layout depends on
// a prefix length chosen by its network, so every layout is read.
func embeddedIPv4(a netip.Addr) (form string, carried []netip.Addr, localUse bool) {
	if !a.Is6() {
		return "", nil, false
	}
	b := a.As16()
	v4 := func(p, q, r, s int) netip.Addr { return netip.AddrFrom4([4]byte{b[p], b[q], b[r], b[s]}) }
	switch {
	case nat64.Contains(a):
		return "NAT64", []netip.Addr{v4(12, 13, 14, 15)}, false
	case nat64Local.Contains(a):
		// RFC 6052, section 2.2: prefix lengths 48, 56, 64 and 96 (bits
		// 64-71 are zero in every layout).
		return "NAT64", []netip.Addr{v4(6, 7, 9, 10), v4(7, 9, 10, 11), v4(9, 10, 11, 12), v4(12, 13, 14, 15)}, true
	case sixToFour.Contains(a):
		return "6to4", []netip.Addr{v4(2, 3, 4, 5)}, false
	case teredo.Contains(a):
		client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		return "Teredo", []netip.Addr{v4(4, 5, 6, 7), client}, false
	case ipv4Translate.Contains(a):
		return "IPv4-translated", []netip.Addr{v4(12, 13, 14, 15)}, false
	case ipv4Compat.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
		return "IPv4-compatible", []netip.Addr{v4(12, 13, 14, 15)}, false
	}
	return "", nil, false
}

// loopbackName reports whether a host name is loopback by definition
// (RFC 6761).
func loopbackName(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// errRefusedAddress marks a dial the address rules refused.
var errRefusedAddress = errors.New("refused to connect to an address the registry does not forward to")

// addressAllowed reports why the rules refuse address a for a call to an
// endpoint, or nil; the error names the address and the option or flag
// that allows it, for the publisher (a client of a call never sees it).
func (r *endpointRules) addressAllowed(a netip.Addr) error {
	class, what := classify(a)
	switch {
	case class == addrRefused:
		return fmt.Errorf("%s is %s; the registry never forwards calls to unspecified, link-local, metadata, multicast or broadcast addresses, nor to an IPv6 form of a loopback address", a.Unmap(), what)
	case class == addrPrivate && r.allow == nil:
		return fmt.Errorf("%s is %s; name the provider in an endpoint allowlist (--allow-endpoint, service.WithEndpointAllowlist) to allow it", a.Unmap(), what)
	case class == addrLoopback && r.allow == nil && !r.loopback:
		return fmt.Errorf("%s is %s; name the provider in an endpoint allowlist (--allow-endpoint, service.WithEndpointAllowlist), or serve on loopback with --insecure (service.WithLoopbackEndpoints), to allow it", a.Unmap(), what)
	}
	return nil
}

// hostAllowed checks the host of a normalized endpoint at publish: an IP
// literal or a loopback name. Other names are checked when dialed.
func (r *endpointRules) hostAllowed(host string) error {
	if loopbackName(host) {
		return r.addressAllowed(netip.AddrFrom4([4]byte{127, 0, 0, 1}))
	}
	a, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil {
		return nil
	}
	return r.addressAllowed(a)
}

// guardedDialer dials what the address rules allow: it resolves a name,
// checks every address, and dials the checked addresses in turn.
type guardedDialer struct {
	rules *endpointRules
	// lookup resolves a host name; dial connects to an IP address and
	// port. Tests replace both, so that nothing is resolved or dialed
	// outside loopback.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	dial   func(ctx context.Context, network, address string) (net.Conn, error)
}

func newGuardedDialer(r *endpointRules) *guardedDialer {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: r.dialControl}
	return &guardedDialer{
		rules: r,
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		},
		dial: d.DialContext,
	}
}

// DialContext has the signature of http.Transport.DialContext.
func (g *guardedDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else if loopbackName(host) {
		addrs = []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}
	} else if addrs, err = g.lookup(ctx, host); err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("host %s has no address", host)
	}
	for _, a := range addrs {
		if err := g.rules.addressAllowed(a); err != nil {
			return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("%w: %w", errRefusedAddress, err)}
		}
	}
	var first error
	for _, a := range addrs {
		c, err := g.dial(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}
