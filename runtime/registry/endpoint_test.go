package registry

import (
	"net/url"
	"path"
	"strings"
	"testing"
)

func TestNormalizeEndpoint(t *testing.T) {
	cases := []struct {
		in, want string // want "": refused, with wantErr in the message
		wantErr  string
	}{
		{in: "http://127.0.0.1:18090/tools/x", want: "http://127.0.0.1:18090/tools/x"},
		{in: "HTTP://Tools.Internal/V1", want: "http://tools.internal/V1"},
		{in: "http://127.0.0.1:18090/tools/../count", want: "http://127.0.0.1:18090/count"},
		{in: "http://127.0.0.1:18090/tools/%2e%2e/count", want: "http://127.0.0.1:18090/count"},
		{in: "http://127.0.0.1:18090/tools/%2E%2E/count", want: "http://127.0.0.1:18090/count"},
		{in: "http://127.0.0.1:18090/tools/./a/.", want: "http://127.0.0.1:18090/tools/a/"},
		{in: "http://127.0.0.1:18090/tools/a/..", want: "http://127.0.0.1:18090/tools/"},
		{in: "http://127.0.0.1:018080/x", want: "http://127.0.0.1:18080/x"},
		{in: "http://h:80/x", want: "http://h/x"},
		{in: "https://h:443/x", want: "https://h/x"},
		{in: "http://h:443/x", want: "http://h:443/x"},
		{in: "http://h:/x", want: "http://h/x"},
		{in: "http://h", want: "http://h/"},
		{in: "http://h?a=1", want: "http://h/?a=1"},
		{in: "http://h/%7euser/%41%2d", want: "http://h/~user/A-"},
		{in: "http://h/a%3ab", want: "http://h/a%3Ab"},
		{in: "http://h/x?q=%2f%7e&r", want: "http://h/x?q=%2F~&r"},
		{in: "http://[::1]:8080/x", want: "http://[::1]:8080/x"},
		{in: "http://[0:0::1]/x", want: "http://[::1]/x"},
		{in: "http://[FD00:EC2::254]/x", want: "http://[fd00:ec2::254]/x"},
		{in: "http://a-b.c1.example/x", want: "http://a-b.c1.example/x"},

		{in: "", wantErr: "missing"},
		{in: "/tools", wantErr: "scheme must be http or https"},
		{in: "ftp://h/x", wantErr: "scheme must be http or https"},
		{in: "http:///x", wantErr: "host is missing"},
		{in: "http://u:p@h/x", wantErr: "user information"},
		{in: "http://h@127.0.0.1/x", wantErr: "user information"},
		{in: "http://h/x#f", wantErr: "fragment"},
		{in: `http://h\x`, wantErr: `"\" is not allowed`},
		{in: "http://h/a%2fb", wantErr: "encoded '/'"},
		{in: "http://h/a%2Fb", wantErr: "encoded '/'"},
		{in: "http://h/a%5cb", wantErr: "encoded '\\\\'"},
		{in: "http://h/tools/%252e%252e/x", wantErr: "encoded '%'"},
		{in: "http://h/a//b", wantErr: "empty segment"},
		{in: "http://h/../x", wantErr: "climbs above the root"},
		{in: "http://h/%2e%2e/x", wantErr: "climbs above the root"},
		{in: "http://h/a b", wantErr: "byte ' '"},
		{in: "http://h/a\x00", wantErr: "byte '\\x00'"},
		{in: "http://h/a\"b", wantErr: "must be percent-encoded"},
		{in: "http://h/a%zz", wantErr: "not a percent-encoding"},
		{in: "http://h/a%4", wantErr: "not a percent-encoding"},
		{in: "http://0x7f.1/x", wantErr: "IPv4 address in a form other than"},
		{in: "http://2130706433/x", wantErr: "IPv4 address in a form other than"},
		{in: "http://127.1/x", wantErr: "IPv4 address in a form other than"},
		{in: "http://127.000.0.1/x", wantErr: "IPv4 address in a form other than"},
		{in: "http://0177.0.0.1/x", wantErr: "IPv4 address in a form other than"},
		{in: "http://a.0x10/x", wantErr: "IPv4 address in a form other than"},
		{in: "http://[::ffff:127.0.0.1]/x", wantErr: "IPv4 address inside an IPv6"},
		{in: "http://[fe80::1%25eth0]/x", wantErr: "zone"},
		{in: "http://[::1/x", wantErr: "closing ]"},
		{in: "http://[::1]x/x", wantErr: "after the IPv6 address"},
		{in: "http://[127.0.0.1]/x", wantErr: "not an IPv6 address"},
		{in: "http://h%2e.example/x", wantErr: "a host is ASCII letters"},
		{in: "http://h_1/x", wantErr: "a host is ASCII letters"},
		{in: "http://h./x", wantErr: `ends with "."`},
		{in: "http://a..b/x", wantErr: "empty label"},
		{in: "http://h:0/x", wantErr: "between 1 and 65535"},
		{in: "http://h:65536/x", wantErr: "between 1 and 65535"},
		{in: "http://h:+80/x", wantErr: "not a decimal number"},
		{in: "http://h:8080:1/x", wantErr: "a host is ASCII letters"},
		{in: "http://h/x?a b", wantErr: "byte ' '"},
		// Path parameters after a dot segment: Tomcat and others read
		// "..;x" as "..", so the segment climbs where a prefix test sees
		// none.
		{in: "http://h/tools/..;/admin", wantErr: `dot segment with a parameter`},
		{in: "http://h/tools/..;x=1/admin", wantErr: `dot segment with a parameter`},
		{in: "http://h/tools/.;/admin", wantErr: `dot segment with a parameter`},
		{in: "http://h/tools/%2e%2e;/admin", wantErr: `dot segment with a parameter`},
		{in: "http://h/tools/..%3b/admin", wantErr: `dot segment with a parameter`},
		{in: "http://h/tools/a;b/c", want: "http://h/tools/a;b/c"},
		// Control bytes, raw or encoded, end a string or split a header
		// in some stack on the way.
		{in: "http://h/tools/x%00.json", wantErr: "encoded control byte"},
		{in: "http://h/tools/x%0d%0aHost:%20evil", wantErr: "encoded control byte"},
		{in: "http://h/tools/x%0A", wantErr: "encoded control byte"},
		{in: "http://h/tools/x%7f", wantErr: "encoded control byte"},
		{in: "http://h/tools/x?q=%00", wantErr: "encoded control byte"},
		{in: "http://h/tools/x\r\nHost: evil", wantErr: `byte '\r'`},
		{in: "http://h/tools/x\n", wantErr: `byte '\n'`},
	}
	for _, c := range cases {
		got, err := NormalizeEndpoint(c.in)
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("NormalizeEndpoint(%q) = %q, %v; want %q", c.in, got, err, c.want)
		case c.want == "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("NormalizeEndpoint(%q) = %q, %v; want an error saying %q", c.in, got, err, c.wantErr)
		}
	}
}

func TestEndpointUnder(t *testing.T) {
	cases := []struct {
		endpoint, prefix string
		want             bool
	}{
		{"http://h/tools", "http://h/tools", true},
		{"http://h/tools/", "http://h/tools", true},
		{"http://h/tools/a?x=1", "http://h/tools/", true},
		{"http://h/toolsx", "http://h/tools", false},
		{"http://h/count", "http://h/tools", false},
		{"http://h/x", "http://h/", true},
		{"http://h:10/x", "http://h:1/", false},
		{"https://h/tools/a", "http://h/tools", false},
		{"http://h.evil/tools", "http://h/", false},
	}
	for _, c := range cases {
		if got := EndpointUnder(c.endpoint, c.prefix); got != c.want {
			t.Errorf("EndpointUnder(%q, %q) = %v, want %v", c.endpoint, c.prefix, got, c.want)
		}
	}
}

// FuzzNormalizeEndpoint: a normalized endpoint normalizes to itself, Go's
// URL parser reads the same scheme, host and path from it, and one under
// the allowlist prefix "http://127.0.0.1:18090/tools" has a path that no
// server's cleaning (decoding, then removing dot segments) takes out from
// under "/tools".
func FuzzNormalizeEndpoint(f *testing.F) {
	for _, s := range []string{
		"http://127.0.0.1:18090/tools/x", "http://127.0.0.1:18090/tools/../count",
		"http://127.0.0.1:18090/tools/%2e%2e/count", "http://127.0.0.1:018090/tools/a",
		"HTTPS://H:443/%7e/./a?b=%2f", "http://[::1]/x", "http://0x7f.1/x", "http://h/a%2fb",
		"http://127.0.0.1:18090/tools/%252e%252e/count", "http://127.0.0.1:18090/tools/.%2e/x",
	} {
		f.Add(s)
	}
	const prefix = "http://127.0.0.1:18090/tools"
	f.Fuzz(func(t *testing.T, s string) {
		n, err := NormalizeEndpoint(s)
		if err != nil {
			return
		}
		again, err := NormalizeEndpoint(n)
		if err != nil || again != n {
			t.Fatalf("NormalizeEndpoint(%q) = %q, which normalizes to %q, %v", s, n, again, err)
		}
		u, err := url.Parse(n)
		if err != nil {
			t.Fatalf("normalized %q does not parse: %v", n, err)
		}
		if !strings.HasPrefix(n, u.Scheme+"://"+u.Host+u.EscapedPath()) {
			t.Fatalf("normalized %q reads as scheme %q host %q path %q to net/url", n, u.Scheme, u.Host, u.EscapedPath())
		}
		if !EndpointUnder(n, prefix) {
			return
		}
		if u.Host != "127.0.0.1:18090" {
			t.Fatalf("%q is under %s with host %q", n, prefix, u.Host)
		}
		// What a server reads: the decoded path, cleaned, and decoded
		// once more (a server that decodes twice).
		for _, p := range []string{u.Path, decodeAll(u.Path)} {
			if c := path.Clean(p); c != "/tools" && !strings.HasPrefix(c, "/tools/") {
				t.Fatalf("%q (from %q) is under %s, but a server reads path %q", n, s, prefix, c)
			}
		}
	})
}

// decodeAll percent-decodes p until nothing changes.
func decodeAll(p string) string {
	for {
		d, err := url.PathUnescape(p)
		if err != nil || d == p {
			return p
		}
		p = d
	}
}
