package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
)

// mcpTestServer serves three tools over streamable HTTP on 127.0.0.1.
func mcpTestServer(t *testing.T) string {
	t.Helper()
	server := sdk.NewServer(&sdk.Implementation{Name: "search-test", Version: "v1"}, &sdk.ServerOptions{PageSize: 2})
	for _, tool := range []struct{ name, desc string }{
		{"github.create_issue", "Create an issue in a GitHub repository"},
		{"github.list_pulls", "List the pull requests of a repository"},
		{"weather/forecast", "Get the weather forecast for a city"},
	} {
		server.AddTool(&sdk.Tool{Name: tool.name, Description: tool.desc, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{}, nil
			})
	}
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestSearchMCPURL(t *testing.T) {
	url := mcpTestServer(t)
	var stdout, stderr bytes.Buffer
	if code := runSearch([]string{"--mcp-url", url, "create", "an", "issue"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if first := strings.SplitN(stdout.String(), "\n", 2)[0]; !strings.HasPrefix(first, "1.  github.create_issue") {
		t.Errorf("first ranked line %q, want github.create_issue (the server's own name)", first)
	}

	queries := writeFile(t, "queries.jsonl", `{"query": "open a new issue", "gold": ["github.create_issue"]}
{"query": "forecast for Paris", "gold": ["weather/forecast"]}
`)
	stdout.Reset()
	if code := runSearch([]string{"--mcp-url", url, "--queries", queries, "--json", "--passes", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	var got map[string]float64
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output %q: %v", stdout.String(), err)
	}
	if got["tools"] != 3 || got["recall_at_1"] != 1 {
		t.Errorf("evaluation %v, want 3 tools (every page) and recall@1 of 1", got)
	}
}

func TestSearchMCPCommand(t *testing.T) {
	bin := npmservers.Path(t, "mcp-server-everything")
	var stdout, stderr bytes.Buffer
	if code := runSearch([]string{"--mcp-command", bin + " stdio", "sum", "of", "two", "numbers"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if first := strings.SplitN(stdout.String(), "\n", 2)[0]; !strings.HasPrefix(first, "1.  get-sum") {
		t.Errorf("ranking %q, want get-sum first", stdout.String())
	}
}

func TestSearchMCPErrors(t *testing.T) {
	tools := writeFile(t, "tools.jsonl", testTools)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"two catalogs", []string{"--tools", tools, "--mcp-url", "http://127.0.0.1:1/mcp", "x"}, 2, "give one catalog"},
		{"empty command", []string{"--mcp-command", "  ", "x"}, 2, "names no command"},
		{"no catalog", []string{"x"}, 2, "--tools is required"},
		{"unreachable server", []string{"--mcp-url", "http://127.0.0.1:1/mcp", "x"}, 1, "connect"},
		{"command that is no server", []string{"--mcp-command", "true", "x"}, 1, "connect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runSearch(tt.args, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d saying %q", code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}
