package access

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// MinTokenLength is the shortest bearer token accepted, in bytes: tokens
// are secrets, not passwords to remember.
const MinTokenLength = 32

// Action is what a request asks to do.
type Action string

// Actions.
const (
	// Consume lists the registry or resolves toolsets.
	Consume Action = "consume"
	// Call calls a tool of a toolset.
	Call Action = "call"
	// Publish publishes or withdraws a toolset.
	Publish Action = "publish"
	// Inspect reads what operators see: registrations with their
	// providers' endpoints and leases, and the admitted calls (never their
	// payloads or results).
	Inspect Action = "inspect"
)

// Errors for errors.Is.
var (
	// ErrUnauthenticated: the request carries no credential the registry
	// knows.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden: the principal lacks the scope for the action.
	ErrForbidden = errors.New("forbidden")
)

// Principal is a caller the credentials name, with its scopes.
type Principal struct {
	// Name names the principal in messages; it is not a secret.
	Name string
	// scopes maps an action to the toolsets it is granted on; "*" is any.
	scopes map[Action]map[string]bool
}

// Allows reports whether the principal may perform the action on the
// toolset (ignored for Consume and Inspect).
func (p *Principal) Allows(a Action, toolset string) bool {
	on := p.scopes[a]
	if a == Consume || a == Inspect {
		return on != nil
	}
	return on["*"] || on[toolset]
}

// Authorize returns nil when p may perform the action on the toolset, and
// otherwise an error matching ErrForbidden that names the principal and the
// scope it lacks.
func (p *Principal) Authorize(a Action, toolset string) error {
	if p.Allows(a, toolset) {
		return nil
	}
	need := string(a)
	if a != Consume && a != Inspect {
		need += ":" + toolset
	}
	return fmt.Errorf("%w: %s has no scope %s", ErrForbidden, p.Name, need)
}

// AuthorizeAny returns nil when p may perform the action on some toolset,
// and otherwise an error matching ErrForbidden that names the principal
// and the action it has no scope for. A registry checks it from the route
// alone, before it reads a request's body, so that a principal without any
// scope for the action costs it no decoding.
func (p *Principal) AuthorizeAny(a Action) error {
	if len(p.scopes[a]) > 0 {
		return nil
	}
	return fmt.Errorf("%w: %s has no scope %s on any toolset", ErrForbidden, p.Name, a)
}

// Credentials are the principals a registry knows. They are immutable once
// read and safe for concurrent use.
type Credentials struct {
	byToken map[[sha256.Size]byte]*Principal // keyed by the token's digest
	byCert  map[string]*Principal            // keyed by subject common name
}

// Load reads credentials from a file, which must not be readable or
// writable by anyone but its owner (it holds secrets).
func Load(path string) (*Credentials, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("credentials file %s has mode %v: it holds secrets, allow only its owner (chmod 600)", path, perm)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	defer f.Close()
	c, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("credentials file %s: %w", path, err)
	}
	return c, nil
}

// Parse reads credentials in the format of the package documentation: one
// principal a line, blank lines and lines starting with # ignored; lines may
// also be separated by ";", so that a list fits in one environment
// variable. Every principal must be named once and have a credential given
// once and at least one scope.
func Parse(r io.Reader) (*Credentials, error) {
	c := &Credentials{byToken: map[[sha256.Size]byte]*Principal{}, byCert: map[string]*Principal{}}
	names := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		for entry := range strings.SplitSeq(sc.Text(), ";") {
			if err := c.add(strings.TrimSpace(entry), names); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read credentials: %w", err)
	}
	if len(names) == 0 {
		return nil, errors.New("no principals: a registry with no credentials admits no one")
	}
	return c, nil
}

func (c *Credentials) add(line string, names map[string]bool) error {
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	f := strings.Fields(line)
	if len(f) < 3 {
		return fmt.Errorf("want NAME CREDENTIAL SCOPE..., got %d fields", len(f))
	}
	p := &Principal{Name: f[0], scopes: map[Action]map[string]bool{}}
	if names[p.Name] {
		return fmt.Errorf("principal %q named twice", p.Name)
	}
	names[p.Name] = true
	for _, s := range f[2:] {
		if err := p.grant(s); err != nil {
			return fmt.Errorf("principal %q: %w", p.Name, err)
		}
	}
	kind, value, _ := strings.Cut(f[1], ":")
	switch kind {
	case "token":
		if len(value) < MinTokenLength {
			return fmt.Errorf("principal %q: token is %d bytes, at least %d required", p.Name, len(value), MinTokenLength)
		}
		d := sha256.Sum256([]byte(value))
		if _, dup := c.byToken[d]; dup {
			return fmt.Errorf("principal %q: token already given to another principal", p.Name)
		}
		c.byToken[d] = p
	case "cert":
		if value == "" {
			return fmt.Errorf("principal %q: cert credential without a common name", p.Name)
		}
		if _, dup := c.byCert[value]; dup {
			return fmt.Errorf("principal %q: certificate name %q already given to another principal", p.Name, value)
		}
		c.byCert[value] = p
	default:
		return fmt.Errorf("principal %q: credential must be token:SECRET or cert:COMMON-NAME", p.Name)
	}
	return nil
}

// grant adds one scope.
func (p *Principal) grant(scope string) error {
	a, on, scoped := strings.Cut(scope, ":")
	act := Action(a)
	switch {
	case !scoped && (act == Consume || act == Call || act == Inspect):
		on = "*"
	case scoped && act == Publish && on == "*":
	case scoped && (act == Call || act == Publish):
		if err := tools.ValidateName(on); err != nil {
			return fmt.Errorf("scope %q: %w", scope, err)
		}
	default:
		return fmt.Errorf("unknown scope %q (want consume, call, call:TOOLSET, publish:TOOLSET, publish:* or inspect)", scope)
	}
	if p.scopes[act] == nil {
		p.scopes[act] = map[string]bool{}
	}
	p.scopes[act][on] = true
	return nil
}

// Authenticate returns the principal of the request: the one whose client
// certificate the TLS handshake verified, else the one whose bearer token
// the request carries. Anything else matches ErrUnauthenticated; the
// message never repeats what the request presented.
func (c *Credentials) Authenticate(r *http.Request) (*Principal, error) {
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 && len(r.TLS.VerifiedChains[0]) > 0 {
		cn := r.TLS.VerifiedChains[0][0].Subject.CommonName
		if p := c.byCert[cn]; p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("%w: client certificate %q names no principal", ErrUnauthenticated, cn)
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, fmt.Errorf("%w: no credentials: send an Authorization: Bearer header or a client certificate", ErrUnauthenticated)
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil, fmt.Errorf("%w: Authorization header is not a bearer token", ErrUnauthenticated)
	}
	if p := c.byToken[sha256.Sum256([]byte(token))]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("%w: bearer token is not known", ErrUnauthenticated)
}
