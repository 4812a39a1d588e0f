package openai

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/openai/openai-go/v3/responses"

	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// maxDeclarationShare is the target: with a 1,000-tool deferred catalog,
// the first request declares at most 3% of the bytes of declaring every
// tool eagerly.
const maxDeclarationShare = 0.03

// TestDeferredCatalogSize computes, for a 1,000-tool deferred catalog, the
// bytes of the first request's declarations (native and emulated) and of
// declaring every tool eagerly, and checks the target. Run with -v for the
// figures.
func TestDeferredCatalogSize(t *testing.T) {
	cat, eager := openaitest.LargeCatalog(t, 1000)
	for _, rc := range renderings {
		c := New(rc.opts...)
		deferred := openaitest.Declarations(t, renderBody(t, c, openaitest.DeferredFirstRequest(t, c, rc.model, cat)))
		all := openaitest.Declarations(t, renderBody(t, c, openaitest.EagerFirstRequest(t, c, rc.model, eager)))
		share := float64(deferred) / float64(all)
		t.Logf("%s: first request declares %d bytes, eager declaration %d bytes: %.2f%%", rc.name, deferred, all, 100*share)
		if share > maxDeclarationShare {
			t.Errorf("%s: deferred declarations are %.2f%% of eager, want at most %.0f%%", rc.name, 100*share, 100*maxDeclarationShare)
		}
	}
}

// BenchmarkRenderFirstRequest renders the first request over a 1,000-tool
// deferred catalog, reporting its declaration bytes.
func BenchmarkRenderFirstRequest(b *testing.B) {
	cat, _ := openaitest.LargeCatalog(b, 1000)
	for _, rc := range renderings {
		b.Run(rc.name, func(b *testing.B) {
			c := New(rc.opts...)
			req := openaitest.DeferredFirstRequest(b, c, rc.model, cat)
			var size int
			for b.Loop() {
				size = len(renderBody(b, c, req))
			}
			b.ReportMetric(float64(size), "body-bytes")
		})
	}
}

// BenchmarkRenderDiscoveredHistory renders a request whose history holds a
// discovery result of 50 tools and calls of them, the hot path of a long
// native run.
func BenchmarkRenderDiscoveredHistory(b *testing.B) {
	cat, eager := openaitest.LargeCatalog(b, 1000)
	for _, rc := range renderings {
		b.Run(rc.name, func(b *testing.B) {
			c := New(rc.opts...)
			history := openaitest.DiscoveredHistory(b, cat, eager[:50])
			req := openaitest.Prepare(b, c, rc.model, history, cat)
			for b.Loop() {
				renderBody(b, c, req)
			}
		})
	}
}

// BenchmarkDecodeResponse decodes a native response of twenty function
// calls in a namespace, keeping the output items.
func BenchmarkDecodeResponse(b *testing.B) {
	items := make([]string, 20)
	for i := range items {
		items[i] = fmt.Sprintf(`{"type":"function_call","id":"fc_%d","call_id":"call_%d","namespace":"records","name":"lookup","arguments":"{\"id\":\"r%d\"}","status":"completed"}`, i, i, i)
	}
	var resp responses.Response
	if err := json.Unmarshal([]byte(responseJSON(nativeModel, items...)), &resp); err != nil {
		b.Fatal(err)
	}
	w := newWire(true)
	if _, _, err := w.load("records", "records_lookup"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := w.decodeResponse(&resp); err != nil {
			b.Fatal(err)
		}
	}
}
