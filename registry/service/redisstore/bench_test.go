package redisstore_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// benchToolsets is how many toolsets the benchmarks spread their
// operations over.
const benchToolsets = 32

// BenchmarkCluster measures publishes, resolutions and calls over HTTP on
// loopback against 1 and 3 registry nodes on one redis-server (append-only,
// appendfsync always), with 4 concurrent clients per CPU spread over the
// nodes. It reports
// operations per second and the p50 and p99 latency of one operation.
//
//	go test -run '^$' -bench Cluster -benchtime 2000x ./registry/service/redisstore/
func BenchmarkCluster(b *testing.B) {
	_, url := startRedis(b)
	for _, op := range []string{"publish", "resolve", "call"} {
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/nodes=%d", op, n), func(b *testing.B) {
				benchCluster(b, url, op, n)
			})
		}
	}
}

func benchCluster(b *testing.B, url, op string, nodes int) {
	ctx := context.Background()
	opt, err := redis.ParseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	name := uniqueName(b)
	var clients []*registry.Client
	for range nodes {
		rdb := redis.NewClient(opt)
		b.Cleanup(func() { _ = rdb.Close() })
		st, err := redisstore.New(rdb, name)
		if err != nil {
			b.Fatal(err)
		}
		svc, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st), service.WithInsecure())
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(svc.Handler())
		b.Cleanup(func() { srv.Close(); _ = svc.Close() })
		c, err := registry.NewClient(srv.URL, registry.WithHTTPClient(srv.Client()))
		if err != nil {
			b.Fatal(err)
		}
		clients = append(clients, c)
	}
	p := newProvider(b)
	tokens := make([]registry.Token, benchToolsets)
	for i := range tokens {
		tokens[i] = publish(b, clients[0], p, fmt.Sprintf("t%d", i), "1", "r0").Token
	}
	var seq, worker atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(4) // 4 clients per CPU
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c := clients[int(worker.Add(1))%len(clients)]
		var mine []time.Duration
		for pb.Next() {
			i := seq.Add(1)
			ts := fmt.Sprintf("t%d", i%benchToolsets)
			t0 := time.Now()
			var err error
			switch op {
			case "publish":
				_, err = c.Publish(ctx, &registry.PublishRequest{Toolset: notesToolset(ts, "1"), Revision: fmt.Sprintf("r%d", i), Endpoint: p.url})
			case "resolve":
				_, err = c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: ts}})
			case "call":
				_, err = c.CallResolvedTool(ctx, get(fmt.Sprintf("%s-%d", name, i), ts, tokens[i%benchToolsets], "x"))
			}
			mine = append(mine, time.Since(t0))
			if err != nil {
				b.Error(err)
				return
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "ops/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
