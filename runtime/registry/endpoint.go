package registry

// Endpoint normalization. A registry checks a provider's endpoint against
// its rules (an allowlist of URL prefixes, the addresses it refuses) and
// then forwards calls to it, so the URL it checks must be the URL every
// HTTP stack on the way reads: "http://h/tools/../count" is under
// "http://h/tools" to a string prefix test and is "/count" to the
// provider. NormalizeEndpoint therefore rewrites an endpoint into one form
// (RFC 3986, section 6.2.2, plus the scheme-based rules of section 6.2.3)
// and refuses the forms that HTTP stacks read differently, rather than
// guessing which reading was meant:
//
//   - scheme and host are lower-cased; a default port (80 for http, 443
//     for https) and an empty port are dropped, leading zeros of a port
//     are dropped;
//   - percent-encoded unreserved characters (ALPHA, DIGIT, "-", ".", "_",
//     "~") are decoded and other escapes upper-cased, then dot segments
//     ("." and "..") are removed from the path; an empty path is "/";
//   - refused: user information, a fragment, an encoded "/" or "\" in the
//     path ("%2f" is one segment to some servers and two to others), a
//     raw "\", an encoded "%" in the path (a server that decodes twice
//     reads "%252e" as "."), an empty segment ("//"), a ".." that climbs above the root,
//     an IPv4 address in any form but four decimal parts without leading
//     zeros ("0x7f.1", "2130706433", "127.000.0.1"), an IPv4 address in an
//     IPv6 one ("::ffff:127.0.0.1"), an IPv6 zone, a host that is not
//     ASCII letters, digits, "-" and "." (percent-encoded or international
//     names: write the punycode form), a host ending in ".", any byte
//     that a URL may not hold unescaped, a control byte encoded in the
//     path or query ("%00" ends a string in C, "%0D%0A" splits a header
//     in a stack that decodes before it writes), and a dot segment with a
//     path parameter ("..;", ".;x", "..%3B": Tomcat and servers like it
//     drop the parameter and then climb).

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// NormalizeEndpoint returns the normalized form of a provider endpoint, an
// absolute http or https URL, or an error naming what makes it ambiguous or
// invalid; see the file comment. The normalized form normalizes to itself.
func NormalizeEndpoint(s string) (string, error) {
	if s == "" {
		return "", errors.New("endpoint is missing")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f {
			return "", fmt.Errorf("endpoint %q: byte %q at offset %d is not allowed in a URL; percent-encode it", truncate(s), c, i)
		}
	}
	if strings.Contains(s, "#") {
		return "", fmt.Errorf("endpoint %q: fragment is not allowed", truncate(s))
	}
	if strings.Contains(s, `\`) {
		return "", fmt.Errorf(`endpoint %q: "\" is not allowed (some clients read it as "/")`, truncate(s))
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return "", fmt.Errorf("endpoint %q: not an absolute URL: scheme must be http or https, then ://host/path", truncate(s))
	}
	scheme = strings.ToLower(scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("endpoint %q: scheme must be http or https", truncate(s))
	}
	authority, pathQuery := rest, ""
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		authority, pathQuery = rest[:i], rest[i:]
	}
	host, err := normalizeAuthority(scheme, authority)
	if err != nil {
		return "", fmt.Errorf("endpoint %q: %w", truncate(s), err)
	}
	p, query, hasQuery := strings.Cut(pathQuery, "?")
	p, err = normalizePath(p)
	if err != nil {
		return "", fmt.Errorf("endpoint %q: path: %w", truncate(s), err)
	}
	out := scheme + "://" + host + p
	if hasQuery {
		q, err := normalizeEscapes(query, true)
		if err != nil {
			return "", fmt.Errorf("endpoint %q: query: %w", truncate(s), err)
		}
		out += "?" + q
	}
	return out, nil
}

// normalizeAuthority returns host[:port] normalized.
func normalizeAuthority(scheme, authority string) (string, error) {
	if strings.Contains(authority, "@") {
		return "", errors.New("user information is not allowed")
	}
	host, port := authority, ""
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return "", errors.New("IPv6 address without its closing ]")
		}
		host, port = authority[:end+1], authority[end+1:]
		if port != "" && port[0] != ':' {
			return "", fmt.Errorf("unexpected %q after the IPv6 address", port)
		}
	} else if i := strings.LastIndexByte(authority, ':'); i >= 0 {
		host, port = authority[:i], authority[i:]
	}
	port = strings.TrimPrefix(port, ":")
	h, err := normalizeHost(host)
	if err != nil {
		return "", err
	}
	if port == "" {
		return h, nil
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "", fmt.Errorf("port %q is not a decimal number", port)
		}
	}
	n, err := strconv.ParseUint(strings.TrimLeft(port, "0"), 10, 16)
	if err != nil || n == 0 {
		return "", fmt.Errorf("port %q is not between 1 and 65535", port)
	}
	if (scheme == "http" && n == 80) || (scheme == "https" && n == 443) {
		return h, nil
	}
	return h + ":" + strconv.FormatUint(n, 10), nil
}

// normalizeHost returns a host name or IP literal in its one form.
func normalizeHost(host string) (string, error) {
	if host == "" {
		return "", errors.New("host is missing")
	}
	if strings.HasPrefix(host, "[") {
		inner := host[1 : len(host)-1]
		if strings.Contains(inner, "%") {
			return "", errors.New("an IPv6 zone is not allowed")
		}
		a, err := netip.ParseAddr(inner)
		if err != nil || !a.Is6() {
			return "", fmt.Errorf("host %s is not an IPv6 address", host)
		}
		if a.Is4In6() {
			return "", fmt.Errorf("host %s is an IPv4 address inside an IPv6 one; write the IPv4 address", host)
		}
		return "[" + a.String() + "]", nil
	}
	host = strings.ToLower(host)
	if strings.HasSuffix(host, ".") {
		return "", fmt.Errorf("host %q ends with \".\"; write it without", host)
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return "", fmt.Errorf("host %q has %q: a host is ASCII letters, digits, \"-\" and \".\" (write an international name in its punycode form)", host, c)
		}
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if l == "" {
			return "", fmt.Errorf("host %q has an empty label", host)
		}
	}
	if last := labels[len(labels)-1]; numericLabel(last) {
		// WHATWG URL parsers read a host whose last label is a number as
		// IPv4 in any of its notations; only the dotted-decimal one is
		// unambiguous.
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is4() {
			return "", fmt.Errorf("host %q is an IPv4 address in a form other than four decimal parts without leading zeros (such as 127.0.0.1)", host)
		}
		return a.String(), nil
	}
	return host, nil
}

// numericLabel reports whether a host label reads as a number: decimal
// digits, or "0x" and hex digits.
func numericLabel(l string) bool {
	if h, ok := strings.CutPrefix(l, "0x"); ok {
		l = h
		for i := 0; i < len(l); i++ {
			if !isHex(l[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return l != ""
}

// normalizePath decodes unreserved escapes, upper-cases the others and
// removes dot segments.
func normalizePath(p string) (string, error) {
	if p == "" {
		return "/", nil
	}
	decoded, err := normalizeEscapes(p, false)
	if err != nil {
		return "", err
	}
	segs := strings.Split(decoded[1:], "/")
	out := make([]string, 0, len(segs))
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) == 0 {
				return "", errors.New(`".." climbs above the root`)
			}
			out = out[:len(out)-1]
			if last {
				out = append(out, "")
			}
		case "":
			if !last {
				return "", errors.New(`empty segment ("//") is not allowed`)
			}
			out = append(out, "")
		default:
			if dotWithParameter(seg) {
				return "", fmt.Errorf("segment %q is a dot segment with a parameter: servers that drop path parameters read it as %q", seg, dotBase(seg))
			}
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/"), nil
}

// dotBase returns what a segment is once a path parameter (from ";" or its
// encoding "%3B") is dropped.
func dotBase(seg string) string {
	if i := strings.Index(seg, ";"); i >= 0 {
		seg = seg[:i]
	}
	if i := strings.Index(seg, "%3B"); i >= 0 {
		seg = seg[:i]
	}
	return seg
}

// dotWithParameter reports whether a segment is "." or ".." followed by a
// path parameter.
func dotWithParameter(seg string) bool {
	b := dotBase(seg)
	return b != seg && (b == "." || b == "..")
}

// normalizeEscapes decodes the escapes of unreserved characters and
// upper-cases the hex digits of the others. In a path an escaped "/" or
// "\" is refused; a raw byte a path or query may not hold is refused.
func normalizeEscapes(s string, query bool) (string, error) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			if !allowedRaw(c, query) {
				return "", fmt.Errorf("%q at offset %d must be percent-encoded", c, i)
			}
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", fmt.Errorf("%q at offset %d is not a percent-encoding", s[i:min(i+3, len(s))], i)
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		switch {
		case v < ' ' || v == 0x7f:
			return "", fmt.Errorf("encoded control byte %q at offset %d is not allowed: a stack that decodes it reads the end of a string or of a header line", v, i)
		case isUnreserved(v):
			b.WriteByte(v)
		case !query && (v == '/' || v == '\\'):
			return "", fmt.Errorf("encoded %q at offset %d is not allowed: servers disagree on whether it separates segments", v, i)
		case !query && v == '%':
			return "", fmt.Errorf("encoded '%%' at offset %d is not allowed: a server that decodes twice reads an escape there", i)
		default:
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(s[i+1 : i+3]))
		}
		i += 2
	}
	return b.String(), nil
}

// allowedRaw reports whether c may appear unescaped: pchar (RFC 3986), "/"
// and, in a query, "?".
func allowedRaw(c byte, query bool) bool {
	switch {
	case isUnreserved(c), strings.IndexByte("!$&'()*+,;=:@/", c) >= 0:
		return true
	case c == '?':
		return query
	}
	return false
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// EndpointUnder reports whether a normalized endpoint is under a
// normalized prefix: the same scheme and host (with port), and a path that
// is the prefix's path or continues it at a segment boundary
// ("https://tools.internal/v1" admits "https://tools.internal/v1/records",
// not ".../v10"). A prefix's query is not allowed (NormalizeEndpoint it,
// then check it has none); an endpoint's query does not count.
func EndpointUnder(endpoint, prefix string) bool {
	eBase, _, _ := strings.Cut(endpoint, "?")
	pBase, _, _ := strings.Cut(prefix, "?")
	pBase = strings.TrimSuffix(pBase, "/")
	if !strings.HasPrefix(eBase, pBase) {
		return false
	}
	rest := eBase[len(pBase):]
	return rest == "" || rest[0] == '/'
}
