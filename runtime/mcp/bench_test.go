package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchServer serves n tools in process.
func benchServer(n int, notify bool) *sdk.Server {
	opts := &sdk.ServerOptions{}
	if !notify {
		opts.Capabilities = &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "v1"}, opts)
	for i := range n {
		s.AddTool(&sdk.Tool{
			Name:        fmt.Sprintf("service.tool_%04d", i),
			Description: fmt.Sprintf("Tool number %d of the benchmark catalog", i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["id"]}`),
		}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	}
	return s
}

// BenchmarkSourceRead is what a planning step pays to read a dynamic
// source of 1,000 tools: nothing but a check when the server notifies
// changes, the whole tools/list and its conversion when it does not.
func BenchmarkSourceRead(b *testing.B) {
	for _, notify := range []bool{true, false} {
		b.Run(fmt.Sprintf("notifies=%v", notify), func(b *testing.B) {
			s, err := mcp.Connect(context.Background(), "bench", mcp.InMemory(benchServer(1000, notify)))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			src, err := mcp.NewSource(s, "svc")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := src.ListToolsets(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				got, err := src.ListToolsets(context.Background())
				if err != nil || len(got[0].Schema.Tools) != 1000 {
					b.Fatalf("%d toolsets, %v", len(got), err)
				}
			}
		})
	}
}
