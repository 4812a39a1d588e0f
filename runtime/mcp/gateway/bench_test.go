package gateway

import (
	"context"
	"fmt"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchServers are ten in-process servers of twenty tools each.
func benchServers() []Upstream {
	verbs := []string{"get", "list", "create", "update", "delete"}
	nouns := []string{"issue", "file", "message", "record"}
	var ups []Upstream
	for i := range 10 {
		name := fmt.Sprintf("server%d", i)
		var ts []fakeTool
		for _, v := range verbs {
			for _, n := range nouns {
				ts = append(ts, fakeTool{v + "_" + n, fmt.Sprintf("%s a %s of service %d.", v, n, i)})
			}
		}
		ups = append(ups, inMemory(name, fakeServer(name, ts...)))
	}
	return ups
}

// BenchmarkSearch measures a tool_search call through the gateway, from an
// SDK client in process (JSON-RPC over in-memory pipes), over 200 tools of
// ten servers.
func BenchmarkSearch(b *testing.B) {
	g, err := New(benchServers(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	c := connect(b, g)
	ctx := context.Background()
	queries := []string{"create an issue", "delete a record of service 3", "list messages", "update file"}
	for b.Loop() {
		for _, q := range queries {
			res, err := c.CallTool(ctx, &sdk.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": q}})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(queries)), "ns/search")
}

// BenchmarkCall measures a call of a found tool through the gateway
// (validation, forwarding) and the same call sent to the server directly,
// both from an SDK client in process.
func BenchmarkCall(b *testing.B) {
	ups := benchServers()
	ctx := context.Background()
	args := map[string]any{"text": "hello"}
	b.Run("gateway", func(b *testing.B) {
		g, err := New(ups, Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer g.Close()
		c := connect(b, g)
		c.search(b, map[string]any{"names": []string{"server3_get_issue"}})
		for b.Loop() {
			if res, err := c.CallTool(ctx, &sdk.CallToolParams{Name: "server3_get_issue", Arguments: args}); err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		t, err := ups[3].Transport.NewTransport(ctx)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "v1"}, nil).Connect(ctx, t, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		for b.Loop() {
			if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_issue", Arguments: args}); err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
