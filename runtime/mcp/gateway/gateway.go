package gateway

// The Gateway: its upstreams, its current catalog and the client sessions
// it serves.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Mode says how a client session reaches the tools it found.
type Mode string

// Modes.
const (
	// ModeList adds found tools to the session's tools/list and sends
	// notifications/tools/list_changed. It is the default.
	ModeList Mode = "list"
	// ModeCall keeps the session's tools/list fixed (immediate tools,
	// tool_search and call_tool): found tools are called through
	// call_tool, and a host's prompt cache over its declarations stays
	// valid.
	ModeCall Mode = "call"
	// ModeBoth does both: found tools join tools/list and call_tool is
	// listed for clients that never read the list again.
	ModeBoth Mode = "both"
)

// DefaultListInterval is the ListInterval of Options that set none.
const DefaultListInterval = time.Second

// Modes returns the modes, the default first.
func Modes() []Mode { return []Mode{ModeList, ModeCall, ModeBoth} }

// Upstream is one MCP server, or one toolset of a tool registry, behind
// the gateway.
type Upstream struct {
	// Name is the server's name, the first part of its tools' names
	// ("<Name>_<tool>"); a valid tools.ValidateName segment. For a
	// registry toolset it is the toolset's name.
	Name string
	// Transport reaches the server; nil for a registry toolset.
	Transport mcp.Transport
	// Registry, when set, makes the upstream the registry toolset Name:
	// its tools are listed (ResolveToolset) and called (CallTool) through
	// this client, the runtime's registry client
	// (runtime/registry/runtimeclient), and Transport is nil. Allow, Deny
	// and Immediate name the toolset's tools by their own names.
	Registry runtime.RegistryClient
	// Version, for a registry toolset only, is the version the toolset
	// must currently have; a toolset at another version is unavailable,
	// with the registry's error.
	Version string
	// AllToolsets, with a Registry, serves every toolset the registry
	// holds instead of the toolset Name: Name is then the registry's name
	// (what a search's unavailable and a call's error name), its tools are
	// "<toolset>_<tool>", and Allow, Deny and Immediate name them by their
	// identifiers ("toolset.tool").
	AllToolsets bool
	// Allow, when not empty, lists the only tools of the server (by the
	// server's own names) the gateway serves.
	Allow []string
	// Deny lists tools of the server (by the server's own names) the
	// gateway never serves, whatever Allow says.
	Deny []string
	// Immediate lists tools of the server (by the server's own names)
	// that every session lists from the start, without a search.
	Immediate []string
	// ImmediateAll makes every tool the server serves immediate, whatever
	// it lists (a design's Use of a dynamic or registry toolset without
	// Deferred); Immediate is then empty.
	ImmediateAll bool
	// Declared, when set, is the design's declaration of the server's
	// tools (a generated toolset package's Toolset()): the gateway serves
	// only these tools, under their declared schemas, once the server's
	// list passed mcp.Session.Check against them; a server whose list
	// differs is unavailable, with the difference as its error. Its name
	// is the upstream's Name; Allow, Deny and Immediate then name declared
	// tools by their declared names.
	Declared *tools.ToolsetSchema
}

// Options configure a Gateway.
type Options struct {
	// Mode is how sessions reach found tools; empty means ModeList.
	Mode Mode
	// SearchLimit bounds the tools one search returns; 0 means
	// toolsearch.DefaultLimit.
	SearchLimit int
	// ListInterval is how long a search answers from an upstream's last
	// read list before it reads the list again (in the background); 0
	// means DefaultListInterval.
	ListInterval time.Duration
	// Session configures each upstream's mcp.Session (limits, timeouts).
	Session []mcp.Option
	// Implementation names the gateway to its clients; nil means
	// {Name: "goa-discovery-gateway", Version: "v1"}.
	Implementation *sdk.Implementation
	// Instructions, when set, are the server instructions each session
	// receives at initialization.
	Instructions string
	// Logger receives why an upstream could not be started or read, with
	// the details (a command, an address) the model is never shown; nil
	// discards them.
	Logger *slog.Logger
}

// Gateway serves upstream MCP servers through search. It is safe for
// concurrent use.
type Gateway struct {
	opts      Options
	upstreams []*upstream // in the order given

	mu       sync.Mutex
	cat      *catalog // the current catalog; replaced, never changed
	sessions map[*clientSession]struct{}

	background sync.WaitGroup  // reads started by searches, watches of upstreams
	ctx        context.Context // of the background reads; canceled by Close
	cancel     context.CancelFunc
}

// New returns a gateway of the upstreams. It starts none of them. It
// refuses a server name that is not valid or given twice, an empty
// transport, a tool name given twice in one list, a tool both allowed and
// denied, an immediate tool that Allow or Deny removes, Immediate next to
// ImmediateAll, and a declaration named other than its upstream.
func New(upstreams []Upstream, opts Options) (*Gateway, error) {
	switch opts.Mode {
	case "":
		opts.Mode = ModeList
	case ModeList, ModeCall, ModeBoth:
	default:
		return nil, fmt.Errorf("gateway: mode %q: want one of %q", opts.Mode, Modes())
	}
	if opts.SearchLimit < 0 {
		return nil, fmt.Errorf("gateway: negative search limit %d", opts.SearchLimit)
	}
	if opts.ListInterval < 0 {
		return nil, fmt.Errorf("gateway: negative list interval %s", opts.ListInterval)
	}
	if opts.ListInterval == 0 {
		opts.ListInterval = DefaultListInterval
	}
	if opts.SearchLimit == 0 {
		opts.SearchLimit = toolsearch.DefaultLimit
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Implementation == nil {
		opts.Implementation = &sdk.Implementation{Name: "goa-discovery-gateway", Version: "v1"}
	}
	if len(upstreams) == 0 {
		return nil, errors.New("gateway: no upstream servers")
	}
	g := &Gateway{opts: opts, sessions: make(map[*clientSession]struct{})}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	seen := make(map[string]bool, len(upstreams))
	for i, u := range upstreams {
		if err := tools.ValidateName(u.Name); err != nil {
			return nil, fmt.Errorf("gateway: upstream %d: server name: %w", i, err)
		}
		if seen[u.Name] {
			return nil, fmt.Errorf("gateway: server %q is given twice", u.Name)
		}
		seen[u.Name] = true
		up, err := newUpstream(u, opts.Session)
		if up != nil {
			up.log = opts.Logger
		}
		if err != nil {
			g.cancel()
			return nil, fmt.Errorf("gateway: server %q: %w", u.Name, err)
		}
		up.opts = append(slices.Clone(opts.Session), mcp.WithNotifications(mcp.Notifications{
			ToolListChanged: up.listChanged,
			Log:             up.forwardLog,
		}))
		g.upstreams = append(g.upstreams, up)
	}
	g.cat = g.build()
	for _, u := range g.upstreams {
		g.background.Add(1)
		go g.watch(u)
	}
	return g, nil
}

// Mode returns the gateway's mode.
func (g *Gateway) Mode() Mode { return g.opts.Mode }

// Close closes the connections to the upstream servers (stopping the
// commands it started).
func (g *Gateway) Close() error {
	g.cancel()
	defer g.background.Wait()
	var errs []error
	for _, u := range g.upstreams {
		if err := u.close(); err != nil {
			errs = append(errs, fmt.Errorf("server %q: %w", u.cfg.Name, err))
		}
	}
	return errors.Join(errs...)
}

// NewServer returns the SDK server of one client session: run it on the
// client's transport (for example sdk.StdioTransport). Each call returns a
// server with its own set of found tools.
func (g *Gateway) NewServer() *sdk.Server {
	return newClientSession(g).server
}

// Handler returns the streamable HTTP handler of the gateway: each MCP
// session it opens is a client session of its own.
func (g *Gateway) Handler(opts *sdk.StreamableHTTPOptions) http.Handler {
	// The handler asks for a server for every request; only a request
	// that opens a session (one without a session id) uses it for more
	// than its protocol versions.
	shared := g.NewServer()
	return sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		if r.Header.Get("Mcp-Session-Id") != "" {
			return shared
		}
		return g.NewServer()
	}, opts)
}

// current returns the current catalog.
func (g *Gateway) current() *catalog {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cat
}

// refresh reads the lists of ups (concurrently) and, when one changed,
// builds the catalog again and updates the sessions' lists. It returns
// the current catalog.
func (g *Gateway) refresh(ctx context.Context, ups []*upstream) *catalog {
	changed := make([]bool, len(ups))
	var wg sync.WaitGroup
	for i, u := range ups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			changed[i] = u.read(ctx)
		}()
	}
	wg.Wait()
	if !slices.Contains(changed, true) {
		return g.current()
	}
	g.mu.Lock()
	cat := g.build()
	g.cat = cat
	sessions := make([]*clientSession, 0, len(g.sessions))
	for s := range g.sessions {
		sessions = append(sessions, s)
	}
	g.mu.Unlock()
	for _, s := range sessions {
		s.sync(cat)
	}
	return cat
}

// refreshForSearch returns the catalog a search answers from: the
// upstreams not read yet, or whose last start or read failed, are read
// first; the others, when their last read is older than ListInterval, are
// read again in the background (one read at a time per upstream), and a
// list that changed is indexed again when its read ends. A search thus
// never waits for the lists it already has.
func (g *Gateway) refreshForSearch(ctx context.Context) *catalog {
	var wait []*upstream
	for _, u := range g.upstreams {
		ready, age := u.ready()
		if !ready {
			wait = append(wait, u)
			continue
		}
		if age < g.opts.ListInterval || !u.reading.CompareAndSwap(false, true) {
			continue
		}
		g.background.Add(1)
		go func() {
			defer g.background.Done()
			defer u.reading.Store(false)
			g.refresh(context.WithoutCancel(ctx), []*upstream{u})
		}()
	}
	return g.refresh(ctx, wait)
}

// watch reads the list of u again each time the server says it changed,
// without waiting for a search, so that the sessions whose tools/list
// changes (a found tool removed or changed) are told at once. It returns
// when the gateway closes.
func (g *Gateway) watch(u *upstream) {
	defer g.background.Done()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-u.changed:
			g.refresh(g.ctx, []*upstream{u})
		}
	}
}

// withImmediate returns the upstreams that have immediate tools.
func (g *Gateway) withImmediate() []*upstream {
	var ups []*upstream
	for _, u := range g.upstreams {
		if len(u.immediate) > 0 || u.cfg.ImmediateAll {
			ups = append(ups, u)
		}
	}
	return ups
}

// register and forget track the sessions whose lists follow the catalog.
func (g *Gateway) register(s *clientSession) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sessions[s] = struct{}{}
}

func (g *Gateway) forget(s *clientSession) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.sessions, s)
}
