package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
)

// ErrUnreachable is matched by client errors where no answer came back: the
// connection failed, was cut, or the context ended.
var ErrUnreachable = errors.New("registry unreachable")

// ErrBadResponse is matched by client errors where the registry answered
// outside the protocol: an unexpected status, a malformed body, or records
// that fail their own checks (a fingerprint or token that does not match
// the toolset, a resolution that does not answer what was asked).
var ErrBadResponse = errors.New("registry response outside the protocol")

// Client is the HTTP client of a registry. It is safe for concurrent use.
// Every catalog it returns has been checked: each toolset record is valid,
// its fingerprint and token are the ones its content and revision give,
// and a resolution answers exactly the toolsets asked for, at their pinned
// versions. Reads are incremental: a whole-registry read is revalidated with
// the entity tag of the last one, and toolsets whose bytes were checked
// before are not checked again; every read still returns a fresh copy that
// the caller owns.
type Client struct {
	verified  verifiedSet
	lastList  atomic.Pointer[listSnapshot]
	base      string
	extra     []string      // failover URLs as given
	nodes     []string      // every node's base URL, base first
	node      atomic.Uint32 // the index in nodes of the node that answered last
	http      *http.Client
	maxBody   int64
	token     string
	retries   int
	retryWait time.Duration
	plainHTTP bool // bearer tokens may travel over plain http to any host
}

var (
	_ Consumer  = (*Client)(nil)
	_ Publisher = (*Client)(nil)
)

// ClientOption configures a Client.
type ClientOption func(*Client)

// WithHTTPClient sets the HTTP client used for requests
// (http.DefaultClient otherwise).
func WithHTTPClient(hc *http.Client) ClientOption { return func(c *Client) { c.http = hc } }

// WithBearerToken makes the client present token ("Authorization: Bearer")
// with every request; the registry's credentials give it its scopes (see
// package registry/access). NewClient refuses to send a token over plain
// http to a registry that is not on a loopback address (127.0.0.0/8, ::1,
// "localhost"), where anyone on the path could read it, unless
// WithPlainHTTPTokens is given. For mutual TLS instead, give WithHTTPClient
// a client whose transport's tls.Config holds the client certificate.
func WithBearerToken(token string) ClientOption { return func(c *Client) { c.token = token } }

// WithPlainHTTPTokens lets the client send its bearer token over plain
// http to a registry on any host: for a network the caller trusts, such as
// a service mesh that encrypts every connection itself.
func WithPlainHTTPTokens() ClientOption { return func(c *Client) { c.plainHTTP = true } }

// WithMaxResponseBytes bounds the responses the client reads
// (DefaultMaxBodyBytes otherwise). It may not be less than
// DefaultMaxBodyBytes: the registry sizes its answers to fit that.
func WithMaxResponseBytes(n int64) ClientOption { return func(c *Client) { c.maxBody = n } }

// WithCallRetries makes CallResolvedTool retry a call up to n more times
// when the registry is overloaded or unreachable, with the same call ID,
// token and payload, waiting the registry's Retry-After hint or else wait
// between attempts. The registry's admission record makes retries safe: an
// executed call returns its recorded result, a replaced admission ends with
// ErrAdmissionConflict.
func WithCallRetries(n int, wait time.Duration) ClientOption {
	return func(c *Client) { c.retries, c.retryWait = n, wait }
}

// NewClient returns a client of the registry at baseURL, an absolute http
// or https URL; the API routes are resolved under its path.
func NewClient(baseURL string, opts ...ClientOption) (*Client, error) {
	if err := checkBaseURL(baseURL); err != nil {
		return nil, fmt.Errorf("registry client: base URL: %w", err)
	}
	c := &Client{base: strings.TrimSuffix(baseURL, "/"), http: http.DefaultClient, maxBody: DefaultMaxBodyBytes}
	for _, opt := range opts {
		opt(c)
	}
	if c.maxBody < DefaultMaxBodyBytes {
		return nil, fmt.Errorf("registry client: response limit %d is below the %d bytes the registry's answers may take (DefaultMaxBodyBytes)", c.maxBody, DefaultMaxBodyBytes)
	}
	if strings.ContainsAny(c.token, " \t\r\n") {
		return nil, errors.New("registry client: bearer token holds white space")
	}
	if c.retries < 0 || c.retryWait < 0 {
		return nil, fmt.Errorf("registry client: negative retries %d or wait %v", c.retries, c.retryWait)
	}
	if err := c.initNodes(); err != nil {
		return nil, err
	}
	if c.token != "" && !c.plainHTTP {
		for _, n := range c.nodes {
			if u, _ := url.Parse(n); u.Scheme == "http" && !loopbackHost(u.Hostname()) {
				return nil, fmt.Errorf("registry client: %s is plain http to a host that is not loopback: the bearer token would travel readable; use https, or give WithPlainHTTPTokens", n)
			}
		}
	}
	return c, nil
}

// loopbackHost reports whether host is a loopback IP address or name.
func loopbackHost(host string) bool {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap().IsLoopback()
	}
	host = strings.ToLower(host)
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// checkBaseURL checks the base URL of a registry node.
func checkBaseURL(baseURL string) error {
	if err := ValidateEndpoint(baseURL); err != nil {
		return err
	}
	if u, _ := url.Parse(baseURL); u.RawQuery != "" {
		return fmt.Errorf("%q has a query", baseURL)
	}
	return nil
}

// Publish registers a toolset or replaces its registration.
func (c *Client) Publish(ctx context.Context, req *PublishRequest) (*PublishResult, error) {
	var out PublishResult
	if err := c.do(ctx, http.MethodPost, PathToolsets, req, &out); err != nil {
		return nil, fmt.Errorf("publish toolset %q: %w", req.Toolset.Name, err)
	}
	if err := checkResolved(out.Registration.Resolved()); err != nil {
		return nil, fmt.Errorf("publish toolset %q: %w", req.Toolset.Name, err)
	}
	return &out, nil
}

// Withdraw removes a toolset's current registration.
func (c *Client) Withdraw(ctx context.Context, req *WithdrawRequest) error {
	if err := c.do(ctx, http.MethodPost, PathWithdraw, req, nil); err != nil {
		return fmt.Errorf("withdraw toolset %q: %w", req.Toolset, err)
	}
	return nil
}

// maxReadRestarts bounds how often one catalog read starts again because
// the registry changed between its pages.
const maxReadRestarts = 3

// ListToolsets reads the whole registry, every page of it (see
// Catalog.Next). An empty registry is an empty catalog, not an error.
func (c *Client) ListToolsets(ctx context.Context) (*Catalog, error) {
	for restart := 0; ; restart++ {
		cat, err := c.listOnce(ctx)
		if !errors.Is(err, ErrCatalogChanged) || restart == maxReadRestarts {
			if err != nil {
				return nil, fmt.Errorf("list registry: %w", err)
			}
			return cat, nil
		}
	}
}

func (c *Client) listOnce(ctx context.Context) (*Catalog, error) {
	last := c.lastList.Load()
	var header http.Header
	if last != nil {
		header = http.Header{"If-None-Match": {last.etag}}
	}
	ans, err := c.send(ctx, http.MethodGet, PathToolsets, nil, header)
	if err != nil {
		return nil, err
	}
	if ans.status == http.StatusNotModified {
		if last == nil {
			return nil, fmt.Errorf("%w: 304 Not Modified to a request without If-None-Match", ErrBadResponse)
		}
		return cloneCatalog(last.catalog), nil
	}
	etag := ans.header.Get("ETag")
	var read catalogRead
	next, err := c.verified.decodePage(&read, ans.body)
	for err == nil && next != "" {
		ans, err = c.send(ctx, http.MethodGet, PathToolsets+"?cursor="+url.QueryEscape(next), nil, nil)
		if err == nil {
			next, err = c.verified.decodePage(&read, ans.body)
		}
	}
	if err != nil {
		return nil, err
	}
	out, err := c.verified.finish(&read, nil)
	if err != nil {
		return nil, err
	}
	if etag != "" {
		c.lastList.Store(&listSnapshot{etag: etag, catalog: cloneCatalog(out)})
	} else {
		c.lastList.Store(nil)
	}
	return out, nil
}

// ResolveToolsets reads the named toolsets, all or none, every page of the
// resolution.
func (c *Client) ResolveToolsets(ctx context.Context, refs []ToolsetRef) (*Catalog, error) {
	for restart := 0; ; restart++ {
		cat, err := c.resolveOnce(ctx, refs)
		if !errors.Is(err, ErrCatalogChanged) || restart == maxReadRestarts {
			if err != nil {
				return nil, fmt.Errorf("resolve %s: %w", refNames(refs), err)
			}
			return cat, nil
		}
	}
}

func (c *Client) resolveOnce(ctx context.Context, refs []ToolsetRef) (*Catalog, error) {
	var read catalogRead
	next, err := "", error(nil)
	for first := true; err == nil && (first || next != ""); first = false {
		var ans *answer
		ans, err = c.send(ctx, http.MethodPost, PathResolve, &ResolveRequest{Toolsets: refs, Cursor: next}, nil)
		if err == nil {
			next, err = c.verified.decodePage(&read, ans.body)
		}
	}
	if err != nil {
		return nil, err
	}
	if refs == nil {
		refs = []ToolsetRef{} // a resolution, even of nothing, is not a whole-registry read
	}
	return c.verified.finish(&read, refs)
}

// CallResolvedTool runs a call under the token its tool was resolved under,
// retrying as WithCallRetries allows.
func (c *Client) CallResolvedTool(ctx context.Context, call *CallRequest) (*CallResult, error) {
	for attempt := 0; ; attempt++ {
		var out CallResult
		err := c.do(ctx, http.MethodPost, PathCalls, call, &out)
		if err == nil {
			if out.CallID != call.CallID || out.Tool != call.Tool || out.Token != call.Token {
				return nil, fmt.Errorf("call %q: %w: result is for call %q of %q under %q", call.CallID, ErrBadResponse, out.CallID, out.Tool, out.Token)
			}
			return &out, nil
		}
		wait, retry := c.retryDelay(err)
		if !retry || attempt >= c.retries {
			return nil, fmt.Errorf("call %q to %q: %w", call.CallID, call.Tool, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("call %q to %q: %w: %w (after %v)", call.CallID, call.Tool, ErrUnreachable, ctx.Err(), err)
		case <-t.C:
		}
	}
}

func (c *Client) retryDelay(err error) (time.Duration, bool) {
	var e *Error
	switch {
	case errors.As(err, &e) && e.Code.Retryable():
		if e.RetryAfter > 0 {
			return e.RetryAfter, true
		}
		return c.retryWait, true
	case errors.Is(err, ErrUnreachable):
		return c.retryWait, true
	}
	return 0, false
}

// do sends one request and decodes a 2xx answer into out (nil: no body
// expected). Error answers come back as *Error.
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	ans, err := c.send(ctx, method, path, in, nil)
	if err != nil || out == nil {
		return err
	}
	if err := strictjson.Decode(ans.body, out); err != nil {
		return fmt.Errorf("%w: status %d: %w", ErrBadResponse, ans.status, err)
	}
	return nil
}

// answer is a registry's answer with a 2xx or 304 status.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// send sends one request with the extra headers and returns the answer;
// an error status comes back as *Error. A node that cannot be reached is
// skipped for the next one (see WithFailover).
func (c *Client) send(ctx context.Context, method, path string, in any, header http.Header) (*answer, error) {
	var data []byte
	if in != nil {
		var err error
		if data, err = json.Marshal(in); err != nil {
			return nil, fmt.Errorf("encode request: %w", err)
		}
	}
	start := c.node.Load()
	var errs []error
	for i := range uint32(len(c.nodes)) {
		n := (start + i) % uint32(len(c.nodes))
		ans, err := c.sendTo(ctx, c.nodes[n], method, path, data, in != nil, header)
		if err == nil || !errors.Is(err, ErrUnreachable) {
			c.node.CompareAndSwap(start, n) // this node answered
			return ans, err
		}
		if ctx.Err() != nil {
			return nil, err
		}
		errs = append(errs, err)
	}
	if len(errs) == 1 {
		return nil, errs[0]
	}
	return nil, fmt.Errorf("every node failed: %w", errors.Join(errs...))
}

// sendTo sends one request to the node at base.
func (c *Client) sendTo(ctx context.Context, base, method, path string, data []byte, hasBody bool, header http.Header) (*answer, error) {
	var body io.Reader
	if hasBody {
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, body)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if hasBody {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnreachable, base, err)
	}
	defer resp.Body.Close()
	data, err = io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: read response: %w", ErrUnreachable, base, err)
	}
	if int64(len(data)) > c.maxBody {
		return nil, fmt.Errorf("%w: response exceeds %d bytes", ErrBadResponse, c.maxBody)
	}
	if resp.StatusCode != http.StatusNotModified && (resp.StatusCode < 200 || resp.StatusCode > 299) {
		return nil, decodeErrorBody(resp, data)
	}
	return &answer{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

func decodeErrorBody(resp *http.Response, data []byte) error {
	var body ErrorBody
	if err := strictjson.Decode(data, &body); err != nil || body.Error == nil || body.Error.Code == "" {
		return fmt.Errorf("%w: status %d with body %q", ErrBadResponse, resp.StatusCode, truncate(string(data)))
	}
	e := body.Error
	e.RetryAfter = parseRetryAfter(resp.Header)
	return e
}

func refNames(refs []ToolsetRef) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = fmt.Sprintf("%q", r.Name)
	}
	return "toolsets " + strings.Join(names, ", ")
}
