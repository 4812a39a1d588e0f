package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestTransportsListAndCall(t *testing.T) {
	for _, tc := range transports {
		t.Run(tc.name, func(t *testing.T) {
			tr, _ := tc.open(t, fixtureOptions{pageSize: 3})
			s := connect(t, "fixture", tr)
			list, err := s.ListTools(context.Background())
			if err != nil {
				t.Fatalf("ListTools: %v", err)
			}
			if len(list) != fixtureToolCount {
				t.Fatalf("ListTools returned %d tools over pages of 3, want %d", len(list), fixtureToolCount)
			}
			res, err := s.Call(context.Background(), "echo", []byte(`{"text":"hi"}`))
			if err != nil {
				t.Fatalf("Call echo: %v", err)
			}
			if got := res.Content[0].(*sdk.TextContent).Text; got != "hi" {
				t.Errorf("echo answered %q, want %q", got, "hi")
			}
		})
	}
}

func TestHTTPClientAuthenticates(t *testing.T) {
	f := newFixture(fixtureOptions{})
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return f.server }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	if s, err := mcp.Connect(context.Background(), "fixture", mcp.HTTP(srv.URL, srv.Client())); err == nil {
		s.Close()
		t.Fatal("Connect without credentials succeeded")
	}
	client := &http.Client{Transport: bearer{token: "s3cret", next: srv.Client().Transport}}
	s := connect(t, "fixture", mcp.HTTP(srv.URL, client))
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatalf("ListTools with credentials: %v", err)
	}
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func TestLimits(t *testing.T) {
	cases := []struct {
		name   string
		limits mcp.Limits
		page   int
		what   string
	}{
		{"too many tools", mcp.Limits{MaxTools: 4}, 0, "tools"},
		{"too many pages", mcp.Limits{MaxPages: 2}, 3, "tools/list pages"},
		{"schema too large", mcp.Limits{MaxSchemaBytes: 100}, 0, "inputSchema bytes"},
		{"schema too deep", mcp.Limits{MaxSchemaDepth: 2}, 0, "inputSchema depth"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(fixtureOptions{pageSize: tc.page})
			s := connect(t, "fixture", mcp.InMemory(f.server), mcp.WithLimits(tc.limits))
			_, err := s.ListCatalog(context.Background(), "fx")
			var le *mcp.LimitError
			if !errors.As(err, &le) || !errors.Is(err, mcp.ErrLimit) {
				t.Fatalf("ListCatalog error = %v, want a *LimitError", err)
			}
			if le.What != tc.what || le.Server != "fixture" || le.Got <= le.Limit {
				t.Errorf("LimitError = %+v, want What %q over its limit", le, tc.what)
			}
		})
	}
	if _, err := mcp.Connect(context.Background(), "fixture", mcp.InMemory(newFixture(fixtureOptions{}).server), mcp.WithLimits(mcp.Limits{MaxTools: -1})); err == nil {
		t.Error("Connect accepted a negative limit")
	}
}

func TestCatalogNames(t *testing.T) {
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	cat, err := s.ListCatalog(context.Background(), "fx")
	if err != nil {
		t.Fatalf("ListCatalog: %v", err)
	}
	want := map[string]string{
		"fx.echo":                          "echo",
		"fx.github_create_issue":           "github.create_issue",
		"fx.repo_list":                     "repo/list",
		"fx." + mcp.ToolName(longToolName): longToolName,
	}
	for id, mcpName := range want {
		i := slices.IndexFunc(cat.Toolset.Tools, func(ts toolSchema) bool { return string(ts.Name) == id })
		if i < 0 {
			t.Errorf("catalog has no tool %q", id)
			continue
		}
		if got, ok := cat.MCPName(cat.Toolset.Tools[i].Name); !ok || got != mcpName {
			t.Errorf("MCPName(%q) = %q, %v; want %q", id, got, ok, mcpName)
		}
	}
	if n := len(mcp.ToolName(longToolName)); n != 64 {
		t.Errorf("ToolName(100-byte name) has %d bytes, want 64", n)
	}

	// Two MCP names that map to one tool name fail the list.
	g := newFixture(fixtureOptions{extraTool: &sdk.Tool{Name: "repo_list", InputSchema: json.RawMessage(noInput)}})
	s2 := connect(t, "fixture", mcp.InMemory(g.server))
	_, err = s2.ListCatalog(context.Background(), "fx")
	if !errors.Is(err, mcp.ErrCatalog) || !errors.Is(err, discoveryCollision) {
		t.Fatalf("ListCatalog with colliding names: %v, want a name collision", err)
	}
}

func TestSessionReconnectsAfterServerExit(t *testing.T) {
	for _, tc := range transports {
		t.Run(tc.name, func(t *testing.T) {
			tr, _ := tc.open(t, fixtureOptions{})
			s := connect(t, "fixture", tr)
			_, err := s.Call(context.Background(), "exit", []byte(`{}`))
			var ce *mcp.CallError
			if !errors.As(err, &ce) || ce.Kind != mcp.CallConnectionLost {
				t.Fatalf("call of exit: %v, want a lost connection", err)
			}
			list, err := s.ListTools(context.Background())
			if err != nil || len(list) != fixtureToolCount {
				t.Fatalf("ListTools after the server exited: %d tools, %v", len(list), err)
			}
		})
	}
	s := connect(t, "fixture", mcp.InMemory(newFixture(fixtureOptions{}).server))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(context.Background(), "echo", []byte(`{"text":"x"}`)); !errors.Is(err, mcp.ErrCall) {
		t.Errorf("call on a closed session: %v, want a call error", err)
	}
}

func TestCallRefusedByServer(t *testing.T) {
	s := connect(t, "fixture", mcp.InMemory(newFixture(fixtureOptions{}).server))
	_, err := s.Call(context.Background(), "no_such_tool", []byte(`{}`))
	var ce *mcp.CallError
	if !errors.As(err, &ce) || ce.Kind != mcp.CallRefused || ce.Detail == "" {
		t.Fatalf("call of an unknown tool: %v, want the server's refusal", err)
	}
	// The session survives a refusal.
	if _, err := s.Call(context.Background(), "echo", []byte(`{"text":"x"}`)); err != nil {
		t.Errorf("call after a refusal: %v", err)
	}
}

// TestCallWithoutArguments checks that nil arguments reach the server as
// absent (the SDK server reads them as {}), and not as a JSON null,
// which its empty object schema refuses.
func TestCallWithoutArguments(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "noargs", Version: "1"}, nil)
	var got []string
	server.AddTool(&sdk.Tool{Name: "ping", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		got = append(got, string(req.Params.Arguments))
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil
	})
	s := connect(t, "noargs", mcp.InMemory(server))
	for _, args := range []json.RawMessage{nil, json.RawMessage(`{}`)} {
		if _, err := s.Call(context.Background(), "ping", args); err != nil {
			t.Fatalf("Call ping %s: %v", args, err)
		}
	}
	if want := []string{"{}", "{}"}; !slices.Equal(got, want) {
		t.Errorf("the server received arguments %q, want %q", got, want)
	}
}

// failingDials is a test double of a Transport: its first fail connections
// break during the handshake, as the idle connections of a server that
// restarted do; later ones reach the fixture in memory.
type failingDials struct {
	mu    sync.Mutex
	fail  int
	dials int
	next  mcp.Transport
}

func (f *failingDials) NewTransport(ctx context.Context) (sdk.Transport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dials++
	if f.dials <= f.fail {
		return brokenTransport{}, nil
	}
	return f.next.NewTransport(ctx)
}

// brokenTransport is a connection that the peer closed.
type brokenTransport struct{}

func (brokenTransport) Connect(context.Context) (sdk.Connection, error) {
	return nil, errors.New("read: connection reset by peer")
}

func TestHandshakeTriedOnceMore(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail int
		ok   bool
	}{
		{"one broken connection", 1, true},
		{"two broken connections", 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &failingDials{fail: tc.fail, next: mcp.InMemory(newFixture(fixtureOptions{}).server)}
			s, err := mcp.Connect(context.Background(), "fixture", tr)
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), "connection reset") {
					t.Fatalf("Connect after %d broken connections: %v, want the handshake's failure", tc.fail, err)
				}
				if tr.dials != 2 {
					t.Errorf("Connect dialed %d times, want 2", tr.dials)
				}
				return
			}
			if err != nil {
				t.Fatalf("Connect after %d broken connection: %v", tc.fail, err)
			}
			defer s.Close()
			res, err := s.Call(context.Background(), "echo", []byte(`{"text":"hi"}`))
			if err != nil || res.Content[0].(*sdk.TextContent).Text != "hi" {
				t.Fatalf("call: %v, %v", res, err)
			}
		})
	}

	// The reconnection after a lost connection gets the second try too.
	f := newFixture(fixtureOptions{})
	tr := &failingDials{next: mcp.InMemory(f.server)}
	s := connect(t, "fixture", tr)
	if _, err := s.Call(context.Background(), "exit", []byte(`{}`)); err == nil {
		t.Fatal("call of exit: no error, want a lost connection")
	}
	tr.mu.Lock()
	tr.fail = tr.dials + 1
	tr.mu.Unlock()
	res, err := s.Call(context.Background(), "echo", []byte(`{"text":"back"}`))
	if err != nil || res.Content[0].(*sdk.TextContent).Text != "back" {
		t.Fatalf("call after the server exited, with one broken connection: %v, %v", res, err)
	}
}
