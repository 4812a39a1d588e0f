package openaichat

import (
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// renderBody returns the JSON body the SDK sends for req.
func renderBody(t testing.TB, c *Client, req *model.Request) []byte {
	t.Helper()
	_, params, err := c.render(req)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	b, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeferredCatalogSize computes, for a 1,000-tool deferred catalog, the
// bytes of the first request's declarations and of declaring every tool
// eagerly, and checks the 3% target. Run with -v for the figures.
func TestDeferredCatalogSize(t *testing.T) {
	cat, eager := openaitest.LargeCatalog(t, 1000)
	c := New()
	deferred := openaitest.Declarations(t, renderBody(t, c, openaitest.DeferredFirstRequest(t, c, chatModel, cat)))
	all := openaitest.Declarations(t, renderBody(t, c, openaitest.EagerFirstRequest(t, c, chatModel, eager)))
	share := float64(deferred) / float64(all)
	t.Logf("chat: first request declares %d bytes, eager declaration %d bytes: %.2f%%", deferred, all, 100*share)
	if share > 0.03 {
		t.Errorf("deferred declarations are %.2f%% of eager, want at most 3%%", 100*share)
	}
}

// BenchmarkRenderDiscoveredHistory renders a request whose history holds a
// discovery result of 50 tools and calls of them.
func BenchmarkRenderDiscoveredHistory(b *testing.B) {
	cat, eager := openaitest.LargeCatalog(b, 1000)
	c := New()
	req := openaitest.Prepare(b, c, chatModel, openaitest.DiscoveredHistory(b, cat, eager[:50]), cat)
	for b.Loop() {
		renderBody(b, c, req)
	}
}
