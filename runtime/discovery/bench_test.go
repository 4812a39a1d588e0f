package discovery

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// benchSchema is a realistic parameter schema.
const benchSchema = `{"type":"object","properties":{"id":{"type":"string","description":"The record id."},` +
	`"fields":{"type":"array","items":{"type":"string"}},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["id"]}`

// benchCatalog returns a catalog of n tools.
func benchCatalog(b *testing.B, n int) *Catalog {
	b.Helper()
	verbs := []string{"get", "list", "create", "update", "delete", "search", "export", "sync"}
	nouns := []string{"invoice", "customer", "order", "ticket", "email", "event", "report", "payment", "user", "file"}
	entries := make([]Entry, n)
	for i := range entries {
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		entries[i] = Entry{
			Name: fmt.Sprintf("svc%d.%s_%s", i, v, o),
			Snapshot: model.ToolSnapshot{
				Name:        fmt.Sprintf("svc%d_%s_%s", i, v, o),
				Description: fmt.Sprintf("%s a %s in service %d", v, o, i),
				Parameters:  json.RawMessage(benchSchema),
			},
		}
	}
	c, err := NewCatalog(entries, nil)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchRequest has 10 application tools and a history that discovered
// three tools of c over two steps.
func benchRequest(c *Catalog) *model.Request {
	app := make([]model.ToolDefinition, 10)
	for i := range app {
		app[i] = model.ToolDefinition{Name: fmt.Sprintf("app_%d", i), Description: "application tool", Parameters: json.RawMessage(benchSchema)}
	}
	first, _ := c.Answer(model.DiscoveryCall{ID: "d1", Query: "create invoice"}, 2)
	second, _ := c.Answer(model.DiscoveryCall{ID: "d2", Query: "export report"}, 1)
	return &model.Request{
		Messages: []model.Message{
			model.SystemMessage("You help."),
			model.UserMessage("Bill the customer and export the report."),
			model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "create invoice"})),
			model.DiscoveryMessage(first),
			model.AssistantMessage(model.ToolCallPart(model.ToolCall{ID: "c1", Name: first.Tools[0].Name, Arguments: json.RawMessage(`{"id":"x"}`)}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Query: "export report"})),
			model.ToolMessage(model.ToolResult{CallID: "c1", Name: first.Tools[0].Name, Content: "ok"}),
			model.DiscoveryMessage(second),
		},
		Tools:     app,
		Discovery: model.Discovery{Enabled: true},
	}
}

// BenchmarkPrepare measures the declarations of one planning step with 10
// application tools, a 10,000-tool catalog and three discovered tools.
func BenchmarkPrepare(b *testing.B) {
	c := benchCatalog(b, 10_000)
	base := benchRequest(c)
	caps := model.Capabilities{Discovery: model.DiscoveryEmulated}
	b.ReportAllocs()
	for b.Loop() {
		req := *base
		if _, err := Prepare(&req, caps, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck measures an adapter's check of a prepared request.
func BenchmarkCheck(b *testing.B) {
	c := benchCatalog(b, 10_000)
	req := benchRequest(c)
	caps := model.Capabilities{Discovery: model.DiscoveryEmulated}
	if _, err := Prepare(req, caps, c); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(req, caps); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRequestChecker measures an adapter's check of a prepared
// request with schemas remembered across requests.
func BenchmarkRequestChecker(b *testing.B) {
	c := benchCatalog(b, 10_000)
	req := benchRequest(c)
	caps := model.Capabilities{Discovery: model.DiscoveryEmulated}
	if _, err := Prepare(req, caps, c); err != nil {
		b.Fatal(err)
	}
	var checker RequestChecker
	b.ReportAllocs()
	for b.Loop() {
		if err := checker.Check(req, caps); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnswer measures answering a query from a 10,000-tool catalog.
func BenchmarkAnswer(b *testing.B) {
	c := benchCatalog(b, 10_000)
	call := model.DiscoveryCall{ID: "d", Names: []string{"svc3_update_invoice"}, Query: "export customer report"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Answer(call, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewCatalog measures building a 10,000-tool catalog and its index.
func BenchmarkNewCatalog(b *testing.B) {
	c := benchCatalog(b, 10_000)
	entries := c.entries
	b.ReportAllocs()
	measureCPU(b, func() {
		if _, err := NewCatalog(entries, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkNewCatalogPrebuiltIndex measures building a 10,000-tool catalog
// over an index built beforehand, as a permitted catalog over its agent's
// index is built.
func BenchmarkNewCatalogPrebuiltIndex(b *testing.B) {
	c := benchCatalog(b, 10_000)
	entries := c.entries
	b.ReportAllocs()
	measureCPU(b, func() {
		if _, err := NewCatalog(entries, c.index); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSubset measures deriving a permitted catalog that leaves out
// one tool in ten from a 10,000-tool catalog.
func BenchmarkSubset(b *testing.B) {
	c := benchCatalog(b, 10_000)
	b.ReportAllocs()
	measureCPU(b, func() { _ = c.Subset(func(i int) bool { return i%10 != 0 }) })
}

// measureCPU runs the benchmark loop body on one locked OS thread and
// reports, beside the wall time, the thread's CPU time per operation
// (cpu-ns/op), which other load on the machine does not inflate.
func measureCPU(b *testing.B, body func()) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := threadCPU()
	n := 0
	for b.Loop() {
		body()
		n++
	}
	if end, ok2 := threadCPU(); ok && ok2 && n > 0 {
		b.ReportMetric(float64((end-start).Nanoseconds())/float64(n), "cpu-ns/op")
	}
}

// BenchmarkCheckArguments measures validating a call against a cached
// schema.
func BenchmarkCheckArguments(b *testing.B) {
	s := model.ToolSnapshot{Name: "t", Parameters: json.RawMessage(benchSchema)}
	call := model.ToolCall{ID: "c", Name: "t", Arguments: json.RawMessage(`{"id":"r1","fields":["a","b"],"limit":10}`)}
	var checker ArgumentChecker
	b.ReportAllocs()
	for b.Loop() {
		if err := checker.Check(s, call); err != nil {
			b.Fatal(err)
		}
	}
}
