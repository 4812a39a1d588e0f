package redisstore_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// scaleOutClients is how many concurrent clients every phase of
// BenchmarkScaleOut runs, redis-benchmark's included.
const scaleOutClients = 16

// BenchmarkScaleOut measures, in one run against one redis-server started
// by the benchmark (append-only, appendfsync always, as .ci/run starts
// it): calls over HTTP on one node on the durable file store, then calls,
// resolutions and publishes over HTTP on a cluster of 3 nodes on the Redis
// store, then redis-benchmark's SET with the same client count. It
// reports each phase's operations per second, the two ratios the cluster
// is held to (cluster calls/s over the single durable node's, and over
// the SET rate) and the CPU time a call costs (this process's: clients,
// nodes and provider; on the cluster, Redis's too, from INFO cpu) and
// that Redis spends on a SET of redis-benchmark, and
// logs, per operation, the round trips each node made (counted by a
// go-redis hook, with their mean time and, for pipelines, the commands
// they carried), the commands Redis ran (INFO commandstats before and
// after) and the CPU time.
//
//	go test ./registry/service/redisstore -run '^$' -bench ScaleOut -benchtime 3000x -v
//
// -benchtime Nx is the operations of each phase.
func BenchmarkScaleOut(b *testing.B) {
	if _, err := exec.LookPath("redis-benchmark"); err != nil {
		b.Skip("redis-benchmark is absent")
	}
	_, url := startRedis(b)
	ctx := context.Background()
	opt, err := redis.ParseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	admin := redis.NewClient(opt)
	b.Cleanup(func() { _ = admin.Close() })
	ops := b.N
	p := newProvider(b)

	// One node on the durable file store.
	svc, err := service.New(service.WithDataDir(b.TempDir()), service.WithInsecure())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = svc.Close() })
	single := []*registry.Client{httpClient(b, svc)}
	singleTokens := publishBench(b, single[0], p)
	cpu := cpuClock{b, admin}
	b.ResetTimer()
	var singleRate float64
	singleCPU, _ := cpu.per(ops, func() {
		singleRate = runPhase(b, single, ops, func(c *registry.Client, i int64) error {
			_, err := c.CallResolvedTool(ctx, get(fmt.Sprintf("single-%d", i), benchTS(i), singleTokens[i%benchToolsets], "x"))
			return err
		})
	})

	// Three nodes on the Redis store, each counting its round trips.
	name := uniqueName(b)
	var nodes []*registry.Client
	var trips []*roundTrips
	for range 3 {
		rdb := redis.NewClient(opt)
		rt := newRoundTrips()
		rdb.AddHook(rt)
		b.Cleanup(func() { _ = rdb.Close() })
		st, err := redisstore.New(rdb, name)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = st.Close() })
		svc, err := service.New(service.WithStore(st), service.WithInsecure())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = svc.Close() })
		nodes = append(nodes, httpClient(b, svc))
		trips = append(trips, rt)
	}
	tokens := publishBench(b, nodes[0], p)
	time.Sleep(redisstore.DefaultMaxStaleness) // every node's watch confirms the publishes
	phase := func(op string, f func(c *registry.Client, i int64) error) (rate, procCPU, redisCPU float64) {
		for _, rt := range trips {
			rt.take()
		}
		before, err := commandStats(ctx, admin)
		if err != nil {
			b.Fatal(err)
		}
		procCPU, redisCPU = cpu.per(ops, func() { rate = runPhase(b, nodes, ops, f) })
		after, err := commandStats(ctx, admin)
		if err != nil {
			b.Fatal(err)
		}
		count, carried, took := map[string]int{}, map[string]int{}, map[string]time.Duration{}
		for _, rt := range trips {
			c, n, t := rt.takeAll()
			for k, v := range c {
				count[k] += v
				carried[k] += n[k]
				took[k] += t[k]
			}
		}
		table, perOp := tripsTable(count, carried, took, ops)
		cmds, cmdsPerOp := statsDelta(before, after, ops)
		b.Logf("%s: %.0f/s; round trips per %s %.2f: %s", op, rate, op, perOp, table)
		b.Logf("%s: Redis commands per %s %.2f: %s", op, op, cmdsPerOp, cmds)
		b.Logf("%s: CPU per %s: %.0f µs in this process (clients, nodes, provider), %.0f µs in Redis", op, op, procCPU, redisCPU)
		b.ReportMetric(perOp, op+"-trips/op")
		return rate, procCPU, redisCPU
	}
	clusterRate, clusterCPU, clusterRedisCPU := phase("call", func(c *registry.Client, i int64) error {
		_, err := c.CallResolvedTool(ctx, get(fmt.Sprintf("%s-%d", name, i), benchTS(i), tokens[i%benchToolsets], "x"))
		return err
	})
	resolveRate, _, _ := phase("resolve", func(c *registry.Client, i int64) error {
		_, err := c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: benchTS(i)}})
		return err
	})
	publishRate, _, _ := phase("publish", func(c *registry.Client, i int64) error {
		_, err := c.Publish(ctx, &registry.PublishRequest{Toolset: notesToolset(benchTS(i), "1"), Revision: fmt.Sprintf("p%d", i), Endpoint: p.url})
		return err
	})
	b.StopTimer()

	var setRate float64
	sets := max(ops*4, minBaselineSETs)
	_, setRedisCPU := cpu.per(sets, func() { setRate = redisBenchmarkSET(b, url, sets) })
	b.ReportMetric(singleRate, "single-calls/s")
	b.ReportMetric(clusterRate, "cluster3-calls/s")
	b.ReportMetric(resolveRate, "cluster3-resolves/s")
	b.ReportMetric(publishRate, "cluster3-publishes/s")
	b.ReportMetric(setRate, "redis-SET/s")
	b.ReportMetric(clusterRate/singleRate, "cluster/single")
	b.ReportMetric(clusterRate/setRate, "cluster/SET")
	b.ReportMetric(singleCPU, "single-cpu-µs/call")
	b.ReportMetric(clusterCPU+clusterRedisCPU, "cluster3-cpu-µs/call")
	b.ReportMetric(clusterRedisCPU, "cluster3-redis-cpu-µs/call")
	b.ReportMetric(setRedisCPU, "redis-cpu-µs/SET")
}

func benchTS(i int64) string { return fmt.Sprintf("t%d", i%benchToolsets) }

func httpClient(b *testing.B, svc *service.Service) *registry.Client {
	srv := httptest.NewServer(svc.Handler())
	b.Cleanup(srv.Close)
	c, err := registry.NewClient(srv.URL, registry.WithHTTPClient(srv.Client()))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func publishBench(b *testing.B, c *registry.Client, p *provider) []registry.Token {
	tokens := make([]registry.Token, benchToolsets)
	for i := range tokens {
		tokens[i] = publish(b, c, p, benchTS(int64(i)), "1", "r0").Token
	}
	return tokens
}

// runPhase runs ops operations on scaleOutClients workers spread over
// clients, and returns the operations per second.
func runPhase(b *testing.B, clients []*registry.Client, ops int, op func(c *registry.Client, i int64) error) float64 {
	var seq atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range scaleOutClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clients[w%len(clients)]
			for {
				i := seq.Add(1)
				if i > int64(ops) {
					return
				}
				if err := op(c, i); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(ops) / time.Since(start).Seconds()
}

// minBaselineSETs is the fewest SETs of the redis-benchmark baseline: a
// run of a few hundred ends within its clock's resolution, and it answers
// "inf requests per second".
const minBaselineSETs = 20_000

var rpsLine = regexp.MustCompile(`SET: ([0-9.]+) requests per second`)

// redisBenchmarkSET runs redis-benchmark's SET against the Redis at url
// with scaleOutClients clients and returns its requests per second.
func redisBenchmarkSET(b *testing.B, url string, n int) float64 {
	host, port := hostPort(url)
	out, err := exec.Command("redis-benchmark", "-h", host, "-p", port, "-c", strconv.Itoa(scaleOutClients),
		"-n", strconv.Itoa(n), "-t", "set", "-q").CombinedOutput()
	if err != nil {
		b.Fatalf("redis-benchmark: %v: %s", err, out)
	}
	m := rpsLine.FindSubmatch(out)
	if m == nil {
		b.Fatalf("redis-benchmark answered %q", out)
	}
	rate, _ := strconv.ParseFloat(string(m[1]), 64)
	fmt.Fprintf(os.Stderr, "redis-benchmark -c %d -n %d -t set: %.0f SET/s\n", scaleOutClients, n, rate)
	return rate
}
