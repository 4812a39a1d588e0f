package gateway

// A client session: the SDK server one client talks to, with the tools it
// found. Its tools/list is the immediate tools, the meta-tools of the mode
// and, in ModeList and ModeBoth, the tools it found, in the current
// catalog; when the catalog changes, the list follows it (the SDK sends
// notifications/tools/list_changed).

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientSession is one client's view of the gateway.
type clientSession struct {
	g      *Gateway
	server *sdk.Server

	startOnce  sync.Once // starts the upstreams with immediate tools
	followOnce sync.Once // registers the session with the gateway

	mu     sync.Mutex
	found  map[string]bool      // model-facing names the session found
	listed map[string]*sdk.Tool // forwarded tools on the server's list
}

func newClientSession(g *Gateway) *clientSession {
	s := &clientSession{g: g, found: make(map[string]bool), listed: make(map[string]*sdk.Tool)}
	s.server = sdk.NewServer(g.opts.Implementation, &sdk.ServerOptions{
		Instructions:       g.opts.Instructions,
		Capabilities:       &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}, Logging: &sdk.LoggingCapabilities{}},
		InitializedHandler: func(_ context.Context, req *sdk.InitializedRequest) { s.follow(req.Session) },
	})
	search := discovery.Tool("")
	s.server.AddTool(&sdk.Tool{
		Name:        discovery.ToolName,
		Description: searchDescription(g.opts.Mode),
		InputSchema: search.Parameters,
	}, s.handleSearch)
	if g.opts.Mode != ModeList {
		d := discovery.Dispatcher()
		s.server.AddTool(&sdk.Tool{
			Name:        discovery.DispatcherName,
			Description: dispatchDescription,
			InputSchema: d.Parameters,
		}, s.handleDispatch)
	}
	// The upstreams with immediate tools start at the session's first
	// list or call, before the SDK answers it.
	s.server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			// A client of protocol 2026-07-28 and later sends no
			// notifications/initialized: its first request is when its
			// list starts following the catalog.
			if ss, ok := req.GetSession().(*sdk.ServerSession); ok {
				s.follow(ss)
			}
			if method == "tools/list" || method == "tools/call" {
				s.startOnce.Do(func() { s.sync(g.refresh(ctx, g.withImmediate())) })
			}
			return next(ctx, method, req)
		}
	})
	return s
}

// follow makes the session's list follow the catalog while the client of
// ss is connected; calls after the first do nothing.
func (s *clientSession) follow(ss *sdk.ServerSession) {
	s.followOnce.Do(func() {
		s.g.register(s)
		go func() {
			_ = ss.Wait()
			s.g.forget(s)
		}()
	})
}

// The meta-tools' descriptions.
const (
	searchList = "Search the tools of the connected MCP servers. Only some tools are listed up front; " +
		"call this tool with keywords describing the task in \"query\", with exact tool names in \"names\", or both. " +
		"It answers with the matching tools (name, description, input schema); they are added to your tool list from then on."
	searchCall = "Search the tools of the connected MCP servers. Only some tools are listed up front; " +
		"call this tool with keywords describing the task in \"query\", with exact tool names in \"names\", or both. " +
		"It answers with the matching tools (name, description, input schema); call them through " + discovery.DispatcherName + "."
	searchBoth = searchList + " Clients that do not show new tools call them through " + discovery.DispatcherName + "."

	dispatchDescription = "Call a tool that " + discovery.ToolName + " found: give its exact name in \"name\" " +
		"and its arguments, matching the input schema the search returned, in \"arguments\"."
)

func searchDescription(m Mode) string {
	switch m {
	case ModeCall:
		return searchCall
	case ModeBoth:
		return searchBoth
	}
	return searchList
}

// sync makes the server's list of forwarded tools the immediate tools and,
// when the mode lists them, the found tools of cat. The SDK notifies the
// client of each change.
func (s *clientSession) sync(cat *catalog) {
	s.mu.Lock()
	defer s.mu.Unlock()
	want := make(map[string]*entry)
	for name, e := range cat.byName {
		if e.up.isImmediate(e) || (s.g.opts.Mode != ModeCall && s.found[name]) {
			want[name] = e
		}
	}
	var gone []string
	for name, t := range s.listed {
		if e, ok := want[name]; !ok || e.tool != t {
			gone = append(gone, name)
			delete(s.listed, name)
		}
	}
	if len(gone) > 0 {
		s.server.RemoveTools(gone...)
	}
	for name, e := range want {
		if s.listed[name] == e.tool {
			continue
		}
		s.listed[name] = e.tool
		s.server.AddTool(e.tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return s.call(ctx, req, name, req.Params.Arguments), nil
		})
	}
}

// reachable reports whether the session may call the tool: it lists it or
// found it.
func (s *clientSession) reachable(e *entry) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.up.isImmediate(e) || s.found[e.name]
}

// handleSearch answers tool_search.
func (s *clientSession) handleSearch(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	call, err := discovery.ParseCall(model.ToolCall{ID: "search", Name: discovery.ToolName, Arguments: arguments(req.Params.Arguments)})
	if err != nil {
		return errorResult(err.Error()), nil
	}
	cat := s.g.refreshForSearch(ctx)
	ans := s.search(cat, call.Query, call.Names)
	s.sync(cat)
	b, err := json.Marshal(ans)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
}

// SearchAnswer is the JSON text a search answers with.
type SearchAnswer struct {
	// Tools are the tools found, best first.
	Tools []FoundTool `json:"tools"`
	// NotFound are the names asked for that no served tool has.
	NotFound []string `json:"not_found,omitempty"`
	// Unavailable are the servers that could not be read and the tools
	// refused.
	Unavailable []Problem `json:"unavailable,omitempty"`
}

// FoundTool is a tool in a search's answer.
type FoundTool struct {
	// Name is the name to call the tool by.
	Name string `json:"name"`
	// Description is the server's description of the tool.
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments.
	InputSchema json.RawMessage `json:"inputSchema"`
}

// search finds the tools named and those matching the query, names first,
// and records them as found by the session.
func (s *clientSession) search(cat *catalog, query string, names []string) SearchAnswer {
	ans := SearchAnswer{Tools: []FoundTool{}, Unavailable: cat.problems}
	seen := make(map[string]bool)
	add := func(e *entry) {
		if seen[e.name] {
			return
		}
		seen[e.name] = true
		ans.Tools = append(ans.Tools, FoundTool{Name: e.name, Description: e.rec.Description, InputSchema: e.rec.Payload})
	}
	for _, n := range names {
		if e := cat.byName[n]; e != nil {
			add(e)
		} else {
			ans.NotFound = append(ans.NotFound, n)
		}
	}
	if query != "" && cat.index != nil {
		for _, r := range cat.index.Search(query, s.g.opts.SearchLimit) {
			add(cat.byID[r.Name])
		}
	}
	s.mu.Lock()
	for n := range seen {
		s.found[n] = true
	}
	s.mu.Unlock()
	return ans
}

// handleDispatch answers call_tool.
func (s *clientSession) handleDispatch(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	call, err := discovery.ParseDispatch(model.ToolCall{ID: "dispatch", Name: discovery.DispatcherName, Arguments: arguments(req.Params.Arguments)})
	if err != nil {
		return errorResult(err.Error()), nil
	}
	if call.Arguments == nil {
		return errorResult("call_tool: \"arguments\" is not a JSON object: " + call.MalformedArguments), nil
	}
	return s.call(ctx, req, call.Name, call.Arguments), nil
}

// arguments returns a call's raw arguments, "{}" for none.
func arguments(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}
