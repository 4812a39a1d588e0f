package mcp_test

// The fixture server: the SDK's own MCP server with tools that exercise
// every rule of this package. It runs in-process (in-memory transport),
// behind httptest (streamable HTTP), or as this test binary re-run as a
// stdio server (TestMain).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioServerEnv makes the test binary serve the fixture over stdio.
const stdioServerEnv = "GOA_DISCOVERY_MCP_FIXTURE_STDIO"

func TestMain(m *testing.M) {
	if os.Getenv(stdioServerEnv) == "1" {
		f := newFixture(fixtureOptions{stdio: true})
		if err := f.server.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if spec := os.Getenv(hostileEnv); spec != "" {
		os.Exit(serveHostileStdio(spec))
	}
	os.Exit(m.Run())
}

// longToolName is an MCP tool name longer than a runtime tool name may be.
var longToolName = strings.Repeat("very_long_tool_name_", 5)

const (
	echoInput = `{"type":"object","properties":{"text":{"type":"string","description":"Text to echo"}},"required":["text"],"additionalProperties":false}`
	addInput  = `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`
	sumOutput = `{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`
	noInput   = `{"type":"object"}`
	issueIn   = `{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`
)

type fixtureOptions struct {
	stdio     bool
	pageSize  int
	noNotify  bool
	extraTool *sdk.Tool
}

// fixture is the test server and what it received.
type fixture struct {
	server *sdk.Server
	// calls counts tools/call requests; lists counts tools/list requests.
	calls, lists atomic.Int64
	mu           sync.Mutex
	called       []string // MCP names of the tools called, in order
	// exit, when set, ends the server's connections for the exit tool.
	exit func()
}

func newFixture(o fixtureOptions) *fixture {
	f := &fixture{}
	opts := &sdk.ServerOptions{PageSize: o.pageSize}
	if o.noNotify {
		opts.Capabilities = &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}
	}
	f.server = sdk.NewServer(&sdk.Implementation{Name: "fixture", Version: "v1"}, opts)
	f.server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			switch method {
			case "tools/list":
				f.lists.Add(1)
			case "tools/call":
				f.calls.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	add := func(name, desc, in, out string, h func(ctx context.Context, args map[string]any, req *sdk.CallToolRequest) *sdk.CallToolResult) {
		t := &sdk.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(in)}
		if out != "" {
			t.OutputSchema = json.RawMessage(out)
		}
		f.server.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			f.mu.Lock()
			f.called = append(f.called, name)
			f.mu.Unlock()
			var args map[string]any
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return h(ctx, args, req), nil
		})
	}
	add("echo", "Echo a text back", echoInput, "", func(_ context.Context, a map[string]any, _ *sdk.CallToolRequest) *sdk.CallToolResult {
		return text(a["text"].(string))
	})
	add("add", "Add two integers", addInput, sumOutput, func(_ context.Context, a map[string]any, _ *sdk.CallToolRequest) *sdk.CallToolResult {
		sum := a["a"].(float64) + a["b"].(float64)
		r := text("")
		r.StructuredContent = map[string]any{"sum": sum}
		return r
	})
	add("github.create_issue", "Create a GitHub issue with a title", issueIn, "", func(_ context.Context, a map[string]any, _ *sdk.CallToolRequest) *sdk.CallToolResult {
		return text("created issue " + a["title"].(string))
	})
	add("repo/list", "List repositories", noInput, "", func(context.Context, map[string]any, *sdk.CallToolRequest) *sdk.CallToolResult {
		return text("alpha\nbeta")
	})
	add(longToolName, "A tool with a very long name", noInput, "", func(context.Context, map[string]any, *sdk.CallToolRequest) *sdk.CallToolResult {
		return text("long")
	})
	add("fail", "Always fails", noInput, "", func(context.Context, map[string]any, *sdk.CallToolRequest) *sdk.CallToolResult {
		r := text("disk full")
		r.IsError = true
		return r
	})
	add("bad_output", "Returns a sum that breaks its schema", noInput, sumOutput, func(context.Context, map[string]any, *sdk.CallToolRequest) *sdk.CallToolResult {
		r := text("")
		r.StructuredContent = map[string]any{"sum": "many"}
		return r
	})
	add("big", "Returns a large text", noInput, "", func(context.Context, map[string]any, *sdk.CallToolRequest) *sdk.CallToolResult {
		return text(strings.Repeat("x", 5000))
	})
	add("slow", "Answers long after any call timeout of the tests", noInput, "", func(ctx context.Context, _ map[string]any, _ *sdk.CallToolRequest) *sdk.CallToolResult {
		// Over streamable HTTP the handler's context outlives a client
		// that gave up; the server closes the session only once its
		// handlers returned.
		select {
		case <-ctx.Done():
		case <-time.After(3 * time.Second):
		}
		return text("too late")
	})
	stdio := o.stdio
	add("exit", "Stops the server", noInput, "", func(ctx context.Context, _ map[string]any, req *sdk.CallToolRequest) *sdk.CallToolResult {
		if stdio {
			os.Exit(3)
		}
		// The connection ends without an answer, as when a server exits.
		// Close waits for the handlers, this one included.
		if f.exit != nil {
			f.exit()
			return text("closed")
		}
		go req.Session.Close()
		<-ctx.Done()
		return text("closed")
	})
	if o.extraTool != nil {
		f.server.AddTool(o.extraTool, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("extra"), nil
		})
	}
	return f
}

// fixtureToolCount is how many tools newFixture serves.
const fixtureToolCount = 10

// transportCase is one way to reach a fixture.
type transportCase struct {
	name string
	// open returns the transport and, for in-process servers, the fixture.
	open func(t *testing.T, o fixtureOptions) (mcp.Transport, *fixture)
}

var transports = []transportCase{
	{"in-memory", func(t *testing.T, o fixtureOptions) (mcp.Transport, *fixture) {
		f := newFixture(o)
		return mcp.InMemory(f.server), f
	}},
	{"streamable HTTP", func(t *testing.T, o fixtureOptions) (mcp.Transport, *fixture) {
		f := newFixture(o)
		srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return f.server }, nil))
		t.Cleanup(srv.Close)
		f.exit = srv.CloseClientConnections
		return mcp.HTTP(srv.URL, srv.Client()), f
	}},
	{"stdio", func(t *testing.T, o fixtureOptions) (mcp.Transport, *fixture) {
		c := mcp.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), stdioServerEnv+"=1")
		c.TerminateAfter = 1
		return c, nil
	}},
}

// connect connects to a fixture and closes the session when the test ends.
func connect(t *testing.T, server string, tr mcp.Transport, opts ...mcp.Option) *mcp.Session {
	t.Helper()
	s, err := mcp.Connect(context.Background(), server, tr, opts...)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
