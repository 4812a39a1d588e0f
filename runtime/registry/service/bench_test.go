package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// echoForwarder is a Forwarder test double that answers in process, so
// that benchmarks measure the registry and not a network hop.
type echoForwarder struct{}

func (echoForwarder) Forward(_ context.Context, _ string, call *registry.CallRequest) (*registry.ProviderResult, error) {
	return &registry.ProviderResult{Result: json.RawMessage(`{"name":"x"}`)}, nil
}

// publishCatalog publishes toolsets × toolsPer tools.
func publishCatalog(b *testing.B, svc *service.Service, toolsets, toolsPer int) registry.Registration {
	b.Helper()
	var last registry.Registration
	for i := range toolsets {
		name := fmt.Sprintf("ts%03d", i)
		ts := tools.ToolsetSchema{Name: name, Description: "toolset " + name, Version: "1.0.0"}
		for j := range toolsPer {
			ts.Tools = append(ts.Tools, tools.ToolSchema{
				Name:        tools.Ident(fmt.Sprintf("%s.tool%03d", name, j)),
				Description: fmt.Sprintf("Tool %d of %s: look up, list and update records of kind %d", j, name, j),
				Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"record id"},"limit":{"type":"integer","minimum":1}},"required":["id"]}`),
			})
		}
		res, err := svc.Publish(context.Background(), &registry.PublishRequest{Toolset: ts, Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
		if err != nil {
			b.Fatal(err)
		}
		last = res.Registration
	}
	return last
}

func BenchmarkListToolsets10k(b *testing.B) {
	svc, err := service.New(service.WithInsecure())
	if err != nil {
		b.Fatal(err)
	}
	publishCatalog(b, svc, 100, 100)
	b.Run("in-process", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := svc.ListToolsets(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	newClient := func(b *testing.B) *registry.Client {
		client, err := registry.NewClient(srv.URL)
		if err != nil {
			b.Fatal(err)
		}
		return client
	}
	// A client's first read checks every record; later reads of unchanged
	// toolsets reuse what it checked.
	b.Run("http-first-read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := newClient(b).ListToolsets(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("http-unchanged", func(b *testing.B) {
		client := newClient(b)
		if _, err := client.ListToolsets(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.ListToolsets(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkResolveOneOf100(b *testing.B) {
	svc, err := service.New(service.WithInsecure())
	if err != nil {
		b.Fatal(err)
	}
	publishCatalog(b, svc, 100, 10)
	refs := []registry.ToolsetRef{{Name: "ts042", Version: "1.0.0"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.ResolveToolsets(context.Background(), refs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCallResolvedTool(b *testing.B) {
	for _, persisted := range []bool{false, true} {
		b.Run(fmt.Sprintf("persisted=%v", persisted), func(b *testing.B) {
			opts := []service.Option{service.WithForwarder(echoForwarder{})}
			if persisted {
				opts = append(opts, service.WithDataDir(b.TempDir()))
			}
			svc, err := service.New(opts...)
			if err != nil {
				b.Fatal(err)
			}
			defer svc.Close()
			reg := publishCatalog(b, svc, 1, 10)
			payload := json.RawMessage(`{"id":"r1","limit":5}`)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				call := &registry.CallRequest{CallID: fmt.Sprintf("c%d", i), Tool: reg.Toolset.Tools[0].Name, Token: reg.Token, Payload: payload}
				if _, err := svc.CallResolvedTool(context.Background(), call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
