package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPUpstream serves an upstream over streamable HTTP on loopback and
// reaches it through a configuration's "url" and "headers": every request
// carries the header, and its tools are found and called.
func TestHTTPUpstream(t *testing.T) {
	upstream := fakeServer("issues", fakeTool{"get_issue", "Get an issue by its number."})
	var withHeader, without atomic.Int64
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return upstream }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer t0ken" {
			withHeader.Add(1)
		} else {
			without.Add(1)
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close) // after the gateway closes its connection (cleanups run last first)
	cfg, err := ParseConfig([]byte(`{"mcpServers":{"issues":{"url":"` + srv.URL + `","headers":{"Authorization":"Bearer t0ken"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ups, err := cfg.Upstreams(nil)
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, Options{}, ups...)
	c := connect(t, g)
	ans := c.search(t, map[string]any{"query": "issue number"})
	if len(ans.Tools) != 1 || ans.Tools[0].Name != "issues_get_issue" {
		t.Fatalf("found %v (unavailable %+v)", foundNames(ans), ans.Unavailable)
	}
	out, isErr := c.call(t, "issues_get_issue", map[string]any{"text": "42"})
	if isErr || !strings.HasPrefix(out, "issues/get_issue") {
		t.Fatalf("call = %q (error %v)", out, isErr)
	}
	if withHeader.Load() == 0 || without.Load() != 0 {
		t.Errorf("requests with the header %d, without %d", withHeader.Load(), without.Load())
	}
}
