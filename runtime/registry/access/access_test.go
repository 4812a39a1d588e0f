package access

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	tokenA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	tokenB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func TestParseErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"empty", "# nothing\n\n", "no principals"},
		{"too few fields", "a token:" + tokenA, "want NAME CREDENTIAL SCOPE"},
		{"short token", "a token:short consume", "at least 32 required"},
		{"unknown credential", "a key:" + tokenA + " consume", "token:SECRET or cert:COMMON-NAME"},
		{"empty cert name", "a cert: consume", "without a common name"},
		{"unknown scope", "a token:" + tokenA + " admin", `unknown scope "admin"`},
		{"scoped consume", "a token:" + tokenA + " consume:records", `unknown scope "consume:records"`},
		{"call any by star", "a token:" + tokenA + " call:*", `scope "call:*"`},
		{"bad toolset name", "a token:" + tokenA + " publish:a.b", `scope "publish:a.b"`},
		{"name twice", "a token:" + tokenA + " consume\na token:" + tokenB + " consume", `principal "a" named twice`},
		{"token twice", "a token:" + tokenA + " consume;b token:" + tokenA + " call", "already given"},
		{"cert twice", "a cert:x consume\nb cert:x call", "already given"},
		{"error names its line", "a token:" + tokenA + " consume\n\nb token:" + tokenB + " nope", "line 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), tokenA) || strings.Contains(err.Error(), tokenB) {
				t.Fatalf("error %q repeats a token", err)
			}
		})
	}
}

func TestScopes(t *testing.T) {
	c, err := Parse(strings.NewReader("# name credential scopes\nprovider token:" + tokenA + " publish:records call:records\nagent token:" + tokenB + " consume call;ops cert:ops.internal publish:*"))
	if err != nil {
		t.Fatal(err)
	}
	provider := c.byToken[digestOf(tokenA)]
	agent := c.byToken[digestOf(tokenB)]
	ops := c.byCert["ops.internal"]
	cases := []struct {
		p       *Principal
		action  Action
		toolset string
		want    bool
	}{
		{provider, Publish, "records", true},
		{provider, Publish, "tickets", false},
		{provider, Call, "records", true},
		{provider, Call, "tickets", false},
		{provider, Consume, "", false},
		{agent, Consume, "", true},
		{agent, Call, "tickets", true},
		{agent, Publish, "records", false},
		{ops, Publish, "anything", true},
		{ops, Call, "anything", false},
	}
	for _, tc := range cases {
		if got := tc.p.Allows(tc.action, tc.toolset); got != tc.want {
			t.Errorf("%s %s %q = %v, want %v", tc.p.Name, tc.action, tc.toolset, got, tc.want)
		}
		err := tc.p.Authorize(tc.action, tc.toolset)
		if (err == nil) != tc.want || (err != nil && !errors.Is(err, ErrForbidden)) {
			t.Errorf("Authorize(%s %s %q) = %v", tc.p.Name, tc.action, tc.toolset, err)
		}
	}
	if err := provider.Authorize(Publish, "tickets"); err == nil || err.Error() != "forbidden: provider has no scope publish:tickets" {
		t.Errorf("refusal %v does not name the principal and the scope", err)
	}
	for _, tc := range []struct {
		p      *Principal
		action Action
		want   string // "" allowed
	}{
		{provider, Publish, ""},
		{provider, Call, ""},
		{provider, Consume, "forbidden: provider has no scope consume on any toolset"},
		{agent, Consume, ""},
		{agent, Call, ""},
		{agent, Publish, "forbidden: agent has no scope publish on any toolset"},
		{ops, Publish, ""},
		{ops, Call, "forbidden: ops has no scope call on any toolset"},
	} {
		err := tc.p.AuthorizeAny(tc.action)
		if (tc.want == "") != (err == nil) || (err != nil && (err.Error() != tc.want || !errors.Is(err, ErrForbidden))) {
			t.Errorf("AuthorizeAny(%s %s) = %v, want %q", tc.p.Name, tc.action, err, tc.want)
		}
	}
}

func TestAuthenticateBearer(t *testing.T) {
	c, err := Parse(strings.NewReader("agent token:" + tokenA + " consume"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, header, want string }{
		{"known token", "Bearer " + tokenA, ""},
		{"scheme in any case", "bearer " + tokenA, ""},
		{"no header", "", "no credentials"},
		{"basic auth", "Basic " + tokenA, "not a bearer token"},
		{"empty token", "Bearer ", "not a bearer token"},
		{"unknown token", "Bearer " + tokenB, "not known"},
		{"token with a suffix", "Bearer " + tokenA + "x", "not known"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tc.header != "" {
				r.Header.Set("Authorization", tc.header)
			}
			p, err := c.Authenticate(r)
			if tc.want == "" {
				if err != nil || p.Name != "agent" {
					t.Fatalf("Authenticate = %v, %v", p, err)
				}
				return
			}
			if !errors.Is(err, ErrUnauthenticated) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tokenB) {
				t.Fatalf("Authenticate error %v, want %q without the token", err, tc.want)
			}
		})
	}
}

func TestAuthenticateCertificate(t *testing.T) {
	c, err := Parse(strings.NewReader("ops cert:ops.internal consume"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cn   string
		want bool
	}{{"ops.internal", true}, {"intruder", false}} {
		r := httptest.NewRequest("GET", "/", nil)
		r.TLS = &tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{{Subject: pkix.Name{CommonName: tc.cn}}}}}
		p, err := c.Authenticate(r)
		if tc.want != (err == nil) || (err == nil && p.Name != "ops") {
			t.Errorf("certificate %q: %v, %v", tc.cn, p, err)
		}
	}
	// An unverified certificate is no credential.
	r := httptest.NewRequest("GET", "/", nil)
	r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{{Subject: pkix.Name{CommonName: "ops.internal"}}}}
	if _, err := c.Authenticate(r); !errors.Is(err, ErrUnauthenticated) {
		t.Errorf("unverified certificate accepted: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "credentials")
	if err := os.WriteFile(path, []byte("agent token:"+tokenA+" consume\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("Load of a world-readable file: %v", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("Load: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("Load of a missing file succeeded")
	}
}

// FuzzParse: no panic, and parsed credentials never authenticate a token
// shorter than MinTokenLength nor repeat a token in an error.
func FuzzParse(f *testing.F) {
	f.Add("agent token:" + tokenA + " consume call;p cert:x publish:*")
	f.Add("a token:" + tokenA + " publish:records\n# c\nb token:" + tokenB + " call:records")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := Parse(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, p := range c.byToken {
			if p.Name == "" || len(p.scopes) == 0 {
				t.Fatalf("principal %+v without a name or scopes", p)
			}
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", "Bearer short")
		if _, err := c.Authenticate(r); err == nil {
			t.Fatal("a short token authenticated")
		}
	})
}

func digestOf(token string) [32]byte { return sha256.Sum256([]byte(token)) }
