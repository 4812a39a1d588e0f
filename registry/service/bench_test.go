package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
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
			svc, err := service.New(append(opts, service.WithLoopbackEndpoints())...)
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

// BenchmarkDurableCalls runs calls concurrently against a persisted
// registry, each call its admission and its result made durable, and
// reports admitted calls per second.
func BenchmarkDurableCalls(b *testing.B) {
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithForwarder(echoForwarder{}), service.WithDataDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	reg := publishCatalog(b, svc, 1, 10)
	b.ReportMetric(parallelCalls(b, reg, svc.CallResolvedTool), "calls/s")
}

// parallelCalls runs b.N calls of the first tool of reg through call, 16
// callers a core (32 on 2 cores, within the 64 forwarding slots), and
// returns the calls per second.
func parallelCalls(b *testing.B, reg registry.Registration, call func(context.Context, *registry.CallRequest) (*registry.CallResult, error)) float64 {
	payload := json.RawMessage(`{"id":"r1","limit":5}`)
	var next atomic.Int64
	b.SetParallelism(16)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := &registry.CallRequest{CallID: fmt.Sprintf("c%d", next.Add(1)), Tool: reg.Toolset.Tools[0].Name, Token: reg.Token, Payload: payload}
			if _, err := call(context.Background(), req); err != nil {
				b.Error(err)
				return
			}
		}
	})
	return float64(b.N) / time.Since(start).Seconds()
}

// BenchmarkDurableCallsHTTP is BenchmarkDurableCalls through the registry
// protocol on loopback, each caller a registry.Client.
func BenchmarkDurableCallsHTTP(b *testing.B) {
	svc, err := service.New(service.WithInsecure(), service.WithForwarder(echoForwarder{}), service.WithDataDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	reg := publishCatalog(b, svc, 1, 10)
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	client, err := registry.NewClient(srv.URL, registry.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(parallelCalls(b, reg, client.CallResolvedTool), "calls/s")
}

// BenchmarkDurableCallsWithReads is BenchmarkDurableCalls with a reader
// resolving a toolset every 200µs meanwhile; it reports the calls per
// second and the reads' latency (median, 99th percentile, maximum).
func BenchmarkDurableCallsWithReads(b *testing.B) {
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithForwarder(echoForwarder{}), service.WithDataDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	reg := publishCatalog(b, svc, 100, 10)
	stop, readerDone := make(chan struct{}), make(chan struct{})
	var latencies []time.Duration
	go func() {
		defer close(readerDone)
		refs := []registry.ToolsetRef{{Name: "ts042", Version: "1.0.0"}}
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			t0 := time.Now()
			if _, err := svc.ResolveToolsets(context.Background(), refs); err != nil {
				b.Error(err)
				return
			}
			latencies = append(latencies, time.Since(t0))
		}
	}()
	rate := parallelCalls(b, reg, svc.CallResolvedTool)
	close(stop)
	<-readerDone
	b.ReportMetric(rate, "calls/s")
	if len(latencies) == 0 {
		return
	}
	slices.Sort(latencies)
	at := func(q float64) float64 { return float64(latencies[int(q*float64(len(latencies)-1))].Microseconds()) }
	b.ReportMetric(at(0.5), "read-p50-µs")
	b.ReportMetric(at(0.99), "read-p99-µs")
	b.ReportMetric(at(1), "read-max-µs")
}

// BenchmarkResolveDuringDurablePublishes measures a resolve while 4
// publishers keep replacing other toolsets of a persisted registry, and
// reports the publishes per second meanwhile.
func BenchmarkResolveDuringDurablePublishes(b *testing.B) {
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithForwarder(echoForwarder{}), service.WithDataDir(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	publishCatalog(b, svc, 100, 10)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var publishes atomic.Int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts := tools.ToolsetSchema{Name: fmt.Sprintf("pub%d", w), Description: "replaced again and again", Version: "1.0.0", Tools: []tools.ToolSchema{{
				Name: tools.Ident(fmt.Sprintf("pub%d.tool", w)), Description: "A tool", Payload: json.RawMessage(`{"type":"object"}`),
			}}}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := svc.Publish(context.Background(), &registry.PublishRequest{Toolset: ts, Revision: fmt.Sprintf("r%d", i), Endpoint: "http://127.0.0.1:1/"}); err != nil {
					b.Error(err)
					return
				}
				publishes.Add(1)
			}
		}()
	}
	refs := []registry.ToolsetRef{{Name: "ts042", Version: "1.0.0"}}
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if _, err := svc.ResolveToolsets(context.Background(), refs); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(publishes.Load())/elapsed.Seconds(), "publishes/s")
}
