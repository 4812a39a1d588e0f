package anthropic

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// bigCatalog returns n deferred tools shaped like real service operations:
// a name, a sentence of description and three described parameters.
func bigCatalog(n int) []discovery.Entry {
	verbs := []string{"get", "list", "create", "update", "delete", "search", "export", "approve"}
	out := make([]discovery.Entry, n)
	for i := range out {
		svc, verb := fmt.Sprintf("service%03d", i/len(verbs)), verbs[i%len(verbs)]
		params := fmt.Sprintf(`{"type":"object","properties":{`+
			`"id":{"type":"string","description":"Identifier of the %[1]s resource to %[2]s."},`+
			`"limit":{"type":"integer","description":"Maximum number of %[1]s items returned."},`+
			`"filter":{"type":"string","description":"Expression selecting which %[1]s items to %[2]s."}},`+
			`"required":["id"]}`, svc, verb)
		out[i] = discovery.Entry{Snapshot: model.ToolSnapshot{
			Name:        svc + "_" + verb,
			Description: fmt.Sprintf("%s the resources managed by %s, with paging and filtering by expression.", verb, svc),
			Parameters:  json.RawMessage(params),
		}}
	}
	return out
}

// catalogFigures are the tool declaration bytes of a first request.
type catalogFigures struct {
	eager   int // every tool declared as an ordinary tool
	wire    int // native: every tool sent, the catalog deferred
	visible int // native: the non-deferred declarations the model reads
	emu     int // emulated: the application's tools and the discovery tool
}

func declarationBytes(t testing.TB, tools any) []json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// measureCatalog renders the first request of a run with an n-tool
// deferred catalog in each mode, and the request declaring all of it.
func measureCatalog(t testing.TB, n int) catalogFigures {
	t.Helper()
	entries := bigCatalog(n)
	cat, err := discovery.NewCatalog(entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := New(WithAPIKey("unused"))
	first := func(modelID string) []json.RawMessage {
		req := &model.Request{Model: modelID, Messages: opening(), Tools: []model.ToolDefinition{lookupTool}, Discovery: model.Discovery{Enabled: true}, MaxOutputTokens: 1024}
		if _, err := discovery.Prepare(req, c.Capabilities(modelID), cat); err != nil {
			t.Fatal(err)
		}
		r, err := c.render(req)
		if err != nil {
			t.Fatal(err)
		}
		return declarationBytes(t, r.params.Tools)
	}
	var f catalogFigures
	for _, d := range first(nativeModel) {
		f.wire += len(d)
		var head struct {
			Defer bool `json:"defer_loading"`
		}
		if err := json.Unmarshal(d, &head); err != nil {
			t.Fatal(err)
		}
		if !head.Defer {
			f.visible += len(d)
		}
	}
	for _, d := range first(emulatedModel) {
		f.emu += len(d)
	}
	eager := &model.Request{Model: nativeModel, Messages: opening(), Tools: []model.ToolDefinition{lookupTool}, MaxOutputTokens: 1024}
	for _, e := range entries {
		eager.Tools = append(eager.Tools, model.ToolDefinition{Name: e.Snapshot.Name, Description: e.Snapshot.Description, Parameters: e.Snapshot.Parameters})
	}
	r, err := c.render(eager)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range declarationBytes(t, r.params.Tools) {
		f.eager += len(d)
	}
	return f
}

// TestDeferredCatalogFigures reports, for a 1,000-tool deferred catalog,
// the first request's declaration bytes against declaring every tool
// eagerly, and checks the model-visible share is at most 3%.
func TestDeferredCatalogFigures(t *testing.T) {
	f := measureCatalog(t, 1000)
	pct := func(n int) float64 { return 100 * float64(n) / float64(f.eager) }
	t.Logf("1,000-tool catalog, first request tool declarations:")
	t.Logf("  eager, every tool:            %7d bytes", f.eager)
	t.Logf("  native, sent (catalog deferred): %7d bytes (%.1f%%)", f.wire, pct(f.wire))
	t.Logf("  native, model-visible:        %7d bytes (%.2f%%)", f.visible, pct(f.visible))
	t.Logf("  emulated, sent and visible:   %7d bytes (%.2f%%)", f.emu, pct(f.emu))
	if pct(f.visible) > 3 || pct(f.emu) > 3 {
		t.Errorf("model-visible declarations are %.2f%% (native) and %.2f%% (emulated) of eager, want at most 3%%", pct(f.visible), pct(f.emu))
	}
	if f.wire <= f.eager {
		t.Errorf("native request sends %d bytes, less than eager %d: the catalog is not all sent", f.wire, f.eager)
	}
}

// BenchmarkRenderDeferredCatalog renders the first native request of a
// run with a 1,000-tool deferred catalog, and reports the declaration
// bytes (eager, sent, model-visible).
func BenchmarkRenderDeferredCatalog(b *testing.B) {
	entries := bigCatalog(1000)
	cat, err := discovery.NewCatalog(entries, nil)
	if err != nil {
		b.Fatal(err)
	}
	c := New(WithAPIKey("unused"))
	req := &model.Request{Model: nativeModel, Messages: opening(), Tools: []model.ToolDefinition{lookupTool}, Discovery: model.Discovery{Enabled: true}, MaxOutputTokens: 1024}
	if _, err := discovery.Prepare(req, c.Capabilities(nativeModel), cat); err != nil {
		b.Fatal(err)
	}
	f := measureCatalog(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := c.render(req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(r.params); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(f.eager), "eager-bytes")
	b.ReportMetric(float64(f.wire), "sent-bytes")
	b.ReportMetric(float64(f.visible), "visible-bytes")
}

// BenchmarkRenderToolChanges renders, with a 1,000-tool deferred catalog,
// the request of a step whose policy withholds a discovered tool: on a
// model with mid-conversation tool changes (the tool stays declared and a
// tool_removal is appended) and on one without (the catalog is declared as
// permitted).
func BenchmarkRenderToolChanges(b *testing.B) {
	entries := bigCatalog(1000)
	full, err := discovery.NewCatalog(entries, nil)
	if err != nil {
		b.Fatal(err)
	}
	lost := entries[10].Snapshot.Name
	without := full.Subset(func(i int) bool { return entries[i].Snapshot.Name != lost })
	call := model.DiscoveryCall{ID: "toolu_d1", Names: []string{lost}}
	res, err := full.Answer(call, 0)
	if err != nil {
		b.Fatal(err)
	}
	history := append(opening(), model.AssistantMessage(model.DiscoveryCallPart(call)), model.DiscoveryMessage(res))
	c := New(WithAPIKey("unused"))
	for _, modelID := range []string{toolChangesModel, nativeModel} {
		b.Run(modelID, func(b *testing.B) {
			req := &model.Request{Model: modelID, Messages: history, Tools: []model.ToolDefinition{lookupTool}, Discovery: model.Discovery{Enabled: true}, MaxOutputTokens: 1024}
			if _, err := discovery.Prepare(req, c.Capabilities(modelID), without); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.render(req)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(r.params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
