package gateway

// One upstream server: started at its first use, its list read through an
// mcp.Source (which knows when a list may be stale) and converted, with
// the server's allow and deny lists applied, into the tools the gateway
// may serve.

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// upstream is one server and its last read list.
type upstream struct {
	cfg                    Upstream
	opts                   []mcp.Option
	log                    *slog.Logger
	allow, deny, immediate map[string]bool

	reading atomic.Bool   // a background read is under way
	changed chan struct{} // the server said its list changed (buffered: 1)

	// calls are the client sessions with a call of the server under way,
	// which its log messages are forwarded to.
	callsMu sync.Mutex
	calls   map[*forwardedCall]struct{}

	mu      sync.Mutex // serializes starts and reads
	closed  bool       // by the gateway: no more starts
	session *mcp.Session
	source  *mcp.Source
	token   string // of the list tools was read from
	listed  bool   // a whole registry was listed once (its token may be "")

	// stateMu guards what the catalog reads, so that building a catalog
	// never waits for a server that is starting.
	stateMu sync.Mutex
	tools   []upstreamTool // the served tools of that list, in the server's order
	missing []string       // allowed or immediate names the list lacks
	err     error          // why the server could not be started or read, or nil
	readAt  time.Time      // when the last read ended
}

// upstreamTool is one served tool of an upstream's list.
type upstreamTool struct {
	mcpName string
	rec     tools.ToolSchema
	token   string // a registry tool's registration token, which its calls carry
}

// newUpstream checks the lists of u.
func newUpstream(u Upstream, opts []mcp.Option) (*upstream, error) {
	switch {
	case u.Registry != nil && u.Transport != nil:
		return nil, fmt.Errorf("both a transport and a registry: an upstream is an MCP server or a registry toolset")
	case u.Registry != nil && u.Declared != nil:
		return nil, fmt.Errorf("a registry toolset has no declaration: the registry's record is its schema")
	case u.Registry == nil && u.Version != "":
		return nil, fmt.Errorf("version %q pins a registry toolset, and the upstream has no registry", u.Version)
	case u.Registry == nil && u.AllToolsets:
		return nil, fmt.Errorf("AllToolsets serves a whole registry, and the upstream has no registry")
	case u.AllToolsets && u.Version != "":
		return nil, fmt.Errorf("version %q pins a registry toolset, not a whole registry", u.Version)
	case u.Registry == nil && u.Transport == nil:
		return nil, fmt.Errorf("no transport")
	}
	up := &upstream{cfg: u, opts: opts, log: slog.New(slog.DiscardHandler),
		changed: make(chan struct{}, 1), calls: make(map[*forwardedCall]struct{})}
	var err error
	if up.allow, err = nameSet("allow", u.Allow); err != nil {
		return nil, err
	}
	if up.deny, err = nameSet("deny", u.Deny); err != nil {
		return nil, err
	}
	if up.immediate, err = nameSet("immediate", u.Immediate); err != nil {
		return nil, err
	}
	for _, n := range u.Allow {
		if up.deny[n] {
			return nil, fmt.Errorf("tool %q is both allowed and denied", n)
		}
	}
	if u.ImmediateAll && len(u.Immediate) > 0 {
		return nil, fmt.Errorf("immediate tools are listed next to ImmediateAll")
	}
	if u.Declared != nil && u.Declared.Name != u.Name {
		return nil, fmt.Errorf("the declaration names toolset %q, not %q", u.Declared.Name, u.Name)
	}
	if u.Declared != nil {
		declared := make(map[string]bool, len(u.Declared.Tools))
		for _, t := range u.Declared.Tools {
			declared[t.Name.Tool()] = true
		}
		for _, list := range [][]string{u.Allow, u.Deny, u.Immediate} {
			for _, n := range list {
				if !declared[n] {
					return nil, fmt.Errorf("tool %q is not declared", n)
				}
			}
		}
	}
	for _, n := range u.Immediate {
		if !up.serves(n) {
			return nil, fmt.Errorf("immediate tool %q is not allowed", n)
		}
	}
	return up, nil
}

// nameSet returns the names of a list, refusing an empty name and a name
// given twice.
func nameSet(list string, names []string) (map[string]bool, error) {
	set := make(map[string]bool, len(names))
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("%s[%d] is empty", list, i)
		}
		if set[n] {
			return nil, fmt.Errorf("%s lists tool %q twice", list, n)
		}
		set[n] = true
	}
	return set, nil
}

// serves reports whether the lists let the gateway serve the tool the
// server calls name.
func (u *upstream) serves(name string) bool {
	return !u.deny[name] && (len(u.allow) == 0 || u.allow[name])
}

// listName is the name the lists (Allow, Deny, Immediate) know the tool
// mcpName of the server by: that name, or the declared name of a declared
// tool.
func (u *upstream) listName(mcpName string, id tools.Ident) string {
	if u.cfg.Declared != nil {
		return id.Tool()
	}
	return mcpName
}

// isImmediate reports whether every session lists the tool from the start.
func (u *upstream) isImmediate(e *entry) bool {
	return u.cfg.ImmediateAll || u.immediate[u.listName(e.mcpName, e.rec.Name)]
}

// catalog reads the server's catalog: its whole list, or the declared tools
// under their declared schemas once the list passed the check against the
// declaration.
func (u *upstream) catalog(ctx context.Context) (*mcp.Catalog, error) {
	if u.cfg.Declared == nil {
		return u.session.ListCatalog(ctx, u.cfg.Name)
	}
	cat, err := u.session.Check(ctx, *u.cfg.Declared)
	if err != nil {
		return nil, err
	}
	declared := *cat
	declared.Toolset = *u.cfg.Declared
	return &declared, nil
}

// read starts the server when it is not started and reads its list when
// it may have changed. It reports whether what the catalog takes from the
// upstream (its tools or its error) changed.
func (u *upstream) read(ctx context.Context) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	fail := func(err error) bool {
		u.log.Warn("mcp gateway: upstream unavailable", "server", u.cfg.Name, "error", err)
		u.stateMu.Lock()
		defer u.stateMu.Unlock()
		changed := u.err == nil || u.err.Error() != err.Error()
		u.err = err
		return changed
	}
	if u.closed {
		return false
	}
	if u.cfg.Registry != nil {
		return u.readRegistry(ctx, fail)
	}
	if u.session == nil {
		s, err := mcp.Connect(ctx, u.cfg.Name, u.cfg.Transport, u.opts...)
		if err != nil {
			return fail(err)
		}
		src, err := mcp.NewSource(s, u.cfg.Name)
		if err != nil {
			_ = s.Close()
			return fail(err)
		}
		u.stateMu.Lock()
		u.session, u.source = s, src
		u.stateMu.Unlock()
	}
	sets, err := u.source.ListToolsets(ctx)
	if err != nil {
		return fail(err)
	}
	if sets[0].Token == u.token {
		return u.unchanged()
	}
	// The list changed: read the server's catalog for the MCP names of
	// its tools.
	cat, err := u.catalog(ctx)
	if err != nil {
		return fail(err)
	}
	list := make([]upstreamTool, len(cat.Toolset.Tools))
	for i, rec := range cat.Toolset.Tools {
		name, _ := cat.MCPName(rec.Name)
		list[i] = upstreamTool{mcpName: name, rec: rec}
	}
	u.apply(sets[0].Token, list)
	return true
}

// apply makes the tools of a list read under token (which changes when
// the list does) the upstream's served tools, with its allow and deny
// lists applied. The caller holds u.mu.
func (u *upstream) apply(token string, list []upstreamTool) {
	listed := make(map[string]bool, len(list))
	served := make([]upstreamTool, 0, len(list))
	for _, t := range list {
		key := u.listName(t.mcpName, t.rec.Name)
		listed[key] = true
		if u.serves(key) {
			served = append(served, t)
		}
	}
	var missing []string
	for _, n := range u.cfg.Allow {
		if !listed[n] {
			missing = append(missing, n)
		}
	}
	for _, n := range u.cfg.Immediate {
		if !listed[n] && !u.allow[n] {
			missing = append(missing, n)
		}
	}
	u.token = token
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	u.tools, u.missing, u.err, u.readAt = served, missing, nil, time.Now()
}

// unchanged records a read that found the list of the last one; it
// reports whether the upstream's error, now cleared, was set.
func (u *upstream) unchanged() bool {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	u.readAt = time.Now()
	hadErr := u.err != nil
	u.err = nil
	return hadErr
}

// state returns what the catalog takes from the upstream.
func (u *upstream) state() (served []upstreamTool, missing []string, err error) {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	return u.tools, u.missing, u.err
}

// ready reports whether the upstream is started and its last read
// succeeded, and how long ago that read ended.
func (u *upstream) ready() (bool, time.Duration) {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	read := u.session != nil || (u.cfg.Registry != nil && !u.readAt.IsZero())
	return read && u.err == nil, time.Since(u.readAt)
}

// started returns the upstream's session, nil before its first start.
func (u *upstream) started() *mcp.Session {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	return u.session
}

func (u *upstream) close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed = true
	u.stateMu.Lock()
	s := u.session
	u.session, u.source, u.token = nil, nil, ""
	u.stateMu.Unlock()
	if s == nil {
		return nil
	}
	return s.Close()
}

// listChanged records the server's notifications/tools/list_changed for
// the gateway's watch; changes that arrive during a read make one more.
func (u *upstream) listChanged() {
	select {
	case u.changed <- struct{}{}:
	default:
	}
}

// forwardedCall is a call of the server under way for a client session:
// its log messages go to that session, filtered by the level the client
// asked for (which the SDK reads from the request's context or the
// session's logging/setLevel).
type forwardedCall struct {
	ctx context.Context
	ss  *sdk.ServerSession
}

// calling records a call of the client session ss under way; the returned
// function ends it.
func (u *upstream) calling(ctx context.Context, ss *sdk.ServerSession) func() {
	if ss == nil {
		return func() {}
	}
	// The context keeps the request's values (the client's log level)
	// past the call's end.
	c := &forwardedCall{ctx: context.WithoutCancel(ctx), ss: ss}
	u.callsMu.Lock()
	u.calls[c] = struct{}{}
	u.callsMu.Unlock()
	return func() {
		time.AfterFunc(logDrain, func() {
			u.callsMu.Lock()
			defer u.callsMu.Unlock()
			delete(u.calls, c)
		})
	}
}

// logDrain is how long a forwarded call still receives the server's log
// messages after its result: the SDK hands a connection's notifications to
// their handler after it delivered the response that followed them.
const logDrain = time.Second

// forwardLog sends a log message of the server to the client sessions with
// a call of it under way (a log message names no request), once per
// session, under the logger "<server>" or "<server>/<logger>".
func (u *upstream) forwardLog(p *sdk.LoggingMessageParams) {
	msg := *p
	msg.Logger = u.cfg.Name
	if p.Logger != "" {
		msg.Logger += "/" + p.Logger
	}
	u.callsMu.Lock()
	to := make(map[*sdk.ServerSession]context.Context, len(u.calls))
	for c := range u.calls {
		to[c.ss] = c.ctx
	}
	u.callsMu.Unlock()
	for ss, ctx := range to {
		// A client that went away misses the message, nothing else.
		_ = ss.Log(ctx, &msg)
	}
}
