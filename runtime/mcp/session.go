package mcp

// A Session is the runtime's connection to one MCP server, under the name
// the design gives the server. It holds at most one SDK session at a time
// and replaces it when it fails: a call that finds the connection gone
// fails with a *CallError the model reads, and the next use connects again.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultCallTimeout bounds one call of a session that sets no timeout.
const DefaultCallTimeout = 60 * time.Second

// DefaultConnectTimeout bounds each connection's handshake (a command's
// start included) of a session that sets no connect timeout.
const DefaultConnectTimeout = 60 * time.Second

// Session is a connection to one MCP server. It is safe for concurrent
// use.
type Session struct {
	server    string
	transport Transport
	client    *sdk.Client
	limits    Limits
	timeout   time.Duration
	connect   time.Duration

	mu      sync.Mutex
	current *conn // nil until connected and after a failure
	closed  bool
	closing sync.WaitGroup // closes of failed connections under way

	// changes counts tools/list_changed notifications and reconnections:
	// a tool list read at one count is stale at another.
	changes atomic.Uint64

	// notify receives what the server sends besides answers (notify.go).
	notify Notifications
	// progress routes the progress notifications of calls under way by
	// their tokens (CallWithProgress).
	progress progressRoutes
}

// Option configures a Session.
type Option func(*Session)

// WithLimits bounds what the server may send; zero fields take
// DefaultLimits.
func WithLimits(l Limits) Option { return func(s *Session) { s.limits = l } }

// WithCallTimeout bounds each call (tools/call, and each tools/list page),
// not the connection's handshake (see WithConnectTimeout); 0 means
// DefaultCallTimeout.
func WithCallTimeout(d time.Duration) Option { return func(s *Session) { s.timeout = d } }

// WithConnectTimeout bounds each connection's handshake; 0 means
// DefaultConnectTimeout.
func WithConnectTimeout(d time.Duration) Option { return func(s *Session) { s.connect = d } }

// Connect connects to the server the design names server through t and
// checks that it answers. The session reconnects through t whenever its
// connection fails; a handshake that fails for a reason other than the
// server's refusal is tried once more on a fresh connection.
func Connect(ctx context.Context, server string, t Transport, opts ...Option) (*Session, error) {
	if err := tools.ValidateName(server); err != nil {
		return nil, fmt.Errorf("mcp: server name: %w", err)
	}
	if t == nil {
		return nil, fmt.Errorf("mcp server %q: no transport", server)
	}
	s := &Session{server: server, transport: t}
	for _, o := range opts {
		o(s)
	}
	var err error
	if s.limits, err = s.limits.withDefaults(); err != nil {
		return nil, err
	}
	if s.timeout < 0 || s.connect < 0 {
		return nil, fmt.Errorf("mcp server %q: negative timeout (call %s, connect %s)", server, s.timeout, s.connect)
	}
	if s.timeout == 0 {
		s.timeout = DefaultCallTimeout
	}
	if s.connect == 0 {
		s.connect = DefaultConnectTimeout
	}
	s.client = sdk.NewClient(&sdk.Implementation{Name: "goa-discovery", Version: "v1"}, s.clientOptions())
	if _, err := s.session(ctx); err != nil {
		return nil, fmt.Errorf("mcp server %q: connect: %w", server, err)
	}
	return s, nil
}

// Server returns the server's name.
func (s *Session) Server() string { return s.server }

// Close closes the connection. Uses after Close fail.
func (s *Session) Close() error {
	s.mu.Lock()
	c := s.current
	s.current, s.closed = nil, true
	s.mu.Unlock()
	var err error
	if c != nil {
		err = c.cs.Close()
	}
	s.closing.Wait()
	return err
}

// errClosed is returned by uses of a closed session.
var errClosed = errors.New("session closed")

// conn is one connection: its SDK session and the cap on the size of the
// messages it reads.
type conn struct {
	cs  *sdk.ClientSession
	cap *messageCap
}

// session returns the current connection, connecting when there is none.
func (s *Session) session(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if s.current != nil {
		return s.current, nil
	}
	c, err := s.dial(ctx)
	if err != nil && refusal(err) == nil && ctx.Err() == nil && !errors.Is(err, ErrLimit) {
		// A server that restarted closes every connection it had, the
		// idle ones an HTTP client would reuse for the handshake
		// included: one more handshake, on a fresh connection, tells a
		// server that is back from one that is gone. The handshake has
		// no effect on the server but a new MCP session.
		c, err = s.dial(ctx)
	}
	if err != nil {
		return nil, err
	}
	s.current = c
	s.changes.Add(1)
	// A server that exits ends the connection; the next use reconnects
	// instead of failing on the dead one.
	s.closing.Add(1)
	go func() {
		defer s.closing.Done()
		_ = c.cs.Wait()
		s.drop(c)
	}()
	return c, nil
}

// dial makes one connection and its handshake, bounded by the connect
// timeout. The messages of a transport of this package are capped at
// MaxMessageBytes.
func (s *Session) dial(ctx context.Context) (*conn, error) {
	c := &conn{cap: &messageCap{limit: s.limits.MaxMessageBytes}}
	var t sdk.Transport
	var err error
	if ct, ok := s.transport.(cappedTransport); ok {
		t, err = ct.newCappedTransport(ctx, c.cap)
	} else {
		t, err = s.transport.NewTransport(ctx)
	}
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.connect)
	defer cancel()
	c.cs, err = s.client.Connect(cctx, t, nil)
	if err != nil {
		if lerr := s.overflow(c, ""); lerr != nil {
			return nil, lerr
		}
		return nil, err
	}
	s.subscribeLogs(cctx, c.cs)
	return c, nil
}

// overflow returns the *LimitError of a message of c that passed
// MaxMessageBytes, or nil.
func (s *Session) overflow(c *conn, tool string) *LimitError {
	got := c.cap.got.Load()
	if got == 0 {
		return nil
	}
	return &LimitError{Server: s.server, Tool: tool, What: "message bytes", Limit: c.cap.limit, Got: int(got)}
}

// drop forgets a failed connection and closes it in the background: a
// command's process may take seconds to exit.
func (s *Session) drop(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current != c {
		return
	}
	s.current = nil
	s.closing.Add(1)
	go func() {
		defer s.closing.Done()
		_ = c.cs.Close()
	}()
}

// listChanged reports whether the server promised tools/list_changed
// notifications, so that a list read stays valid until one arrives.
func (s *Session) listChanged(cs *sdk.ClientSession) bool {
	res := cs.InitializeResult()
	return res != nil && res.Capabilities != nil && res.Capabilities.Tools != nil && res.Capabilities.Tools.ListChanged
}

// ListTools reads the server's whole tool list, every page, within the
// session's limits. A connection that failed is replaced and the read
// tried once more: listing has no effect on the server.
func (s *Session) ListTools(ctx context.Context) ([]*sdk.Tool, error) {
	list, _, err := s.listTools(ctx)
	return list, err
}

// listTools returns the list with the change count it was read at and
// whether that count stays valid until a notification.
func (s *Session) listTools(ctx context.Context) ([]*sdk.Tool, listState, error) {
	for attempt := 0; ; attempt++ {
		c, err := s.session(ctx)
		if err != nil {
			return nil, listState{}, fmt.Errorf("mcp server %q: connect: %w", s.server, err)
		}
		st := listState{changes: s.changes.Load(), notifies: s.listChanged(c.cs)}
		list, err := s.readPages(ctx, c)
		if err == nil || refusal(err) != nil || errors.Is(err, ErrLimit) || attempt > 0 || ctx.Err() != nil {
			return list, st, err
		}
		s.drop(c)
	}
}

// listState is when a list was read.
type listState struct {
	changes  uint64
	notifies bool
}

func (s *Session) readPages(ctx context.Context, c *conn) ([]*sdk.Tool, error) {
	var all []*sdk.Tool
	cursor := ""
	size := 0 // the JSON bytes of the tools read
	for page := 0; ; page++ {
		if page == s.limits.MaxPages {
			return nil, &LimitError{Server: s.server, What: "tools/list pages", Limit: s.limits.MaxPages, Got: page + 1}
		}
		pctx, cancel := context.WithTimeout(ctx, s.timeout)
		res, err := c.cs.ListTools(pctx, &sdk.ListToolsParams{Cursor: cursor})
		cancel()
		if lerr := s.overflow(c, ""); lerr != nil {
			s.drop(c)
			return nil, lerr
		}
		if err != nil {
			return nil, fmt.Errorf("mcp server %q: tools/list: %w", s.server, err)
		}
		all = append(all, res.Tools...)
		if len(all) > s.limits.MaxTools {
			return nil, &LimitError{Server: s.server, What: "tools", Limit: s.limits.MaxTools, Got: len(all)}
		}
		for _, t := range res.Tools {
			b, err := json.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("%w: mcp server %q tool %q: %w", ErrCatalog, s.server, t.Name, err)
			}
			if size += len(b); size > s.limits.MaxListBytes {
				return nil, &LimitError{Server: s.server, What: "tools/list bytes", Limit: s.limits.MaxListBytes, Got: size}
			}
		}
		if res.NextCursor == "" {
			return all, nil
		}
		cursor = res.NextCursor
	}
}

// Call calls the MCP tool name with arguments, a JSON object, and returns
// its result; nil arguments send none (a tool without arguments), not a
// JSON null. Every failure is a *CallError: a result with isError set, a
// protocol error, a timeout, a lost connection (which the next use
// replaces), or a result larger than the limit (its cause a *LimitError).
func (s *Session) Call(ctx context.Context, name string, arguments json.RawMessage) (*sdk.CallToolResult, error) {
	return s.call(ctx, name, arguments, nil)
}

// call is Call, with meta as the request's _meta when it is not nil.
func (s *Session) call(ctx context.Context, name string, arguments json.RawMessage, meta sdk.Meta) (*sdk.CallToolResult, error) {
	fail := func(kind CallErrorKind, detail string, cause error) error {
		return &CallError{Server: s.server, Tool: name, Kind: kind, Detail: detail, Cause: cause}
	}
	c, err := s.session(ctx)
	if err != nil {
		return nil, fail(CallUnreachable, "", err)
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	params := &sdk.CallToolParams{Name: name}
	if arguments != nil {
		params.Arguments = arguments
	}
	if meta != nil {
		params.Meta = meta
	}
	res, err := c.cs.CallTool(cctx, params)
	if lerr := s.overflow(c, name); lerr != nil {
		s.drop(c)
		return nil, fail(CallInvalid, fmt.Sprintf("the server sent a message of more than %d bytes", lerr.Limit), lerr)
	}
	switch {
	case err == nil:
	case refusal(err) != nil:
		return nil, fail(CallRefused, clip(refusal(err).Message), err)
	case ctx.Err() != nil:
		// The caller ended the call; the connection may be fine.
		return nil, fail(CallTimeout, "before the run's context ended", err)
	case cctx.Err() != nil:
		s.drop(c)
		return nil, fail(CallTimeout, "within "+s.timeout.String(), err)
	default:
		s.drop(c)
		return nil, fail(CallConnectionLost, "", err)
	}
	size, err := resultSize(res)
	if err != nil {
		return nil, fail(CallInvalid, "the result cannot be encoded", err)
	}
	if size > s.limits.MaxResultBytes {
		lerr := &LimitError{Server: s.server, Tool: name, What: "result bytes", Limit: s.limits.MaxResultBytes, Got: size}
		return nil, fail(CallInvalid, fmt.Sprintf("the result has %d bytes, more than the limit of %d", size, s.limits.MaxResultBytes), lerr)
	}
	if res.IsError {
		return nil, fail(CallToolError, clip(textOf(res.Content)), nil)
	}
	return res, nil
}

// clip bounds a server's text in an error message.
func clip(s string) string {
	const most = 2000
	if len(s) > most {
		return s[:most] + "..."
	}
	return s
}

// Error codes the SDK gives requests that the transport, not the server,
// failed: a request an HTTP endpoint did not take, a connection closing.
const (
	codeRejected      = -32005
	codeServerClosing = -32004
	codeClientClosing = -32003
)

// refusal returns the server's protocol error answering a request, or nil
// when err is not one: a transport failure, even one the SDK reports as a
// JSON-RPC error, is not the server's answer.
func refusal(err error) *jsonrpc.Error {
	var jerr *jsonrpc.Error
	if !errors.As(err, &jerr) {
		return nil
	}
	switch jerr.Code {
	case codeRejected, codeServerClosing, codeClientClosing:
		return nil
	}
	return jerr
}
