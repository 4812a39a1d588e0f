package redisstore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// BenchmarkCallScripts measures what Redis spends on a call's two scripts
// alone, without HTTP, schema checks or a provider: scaleOutClients
// goroutines of one store admit, claim and hand over a new call
// (AdmitAndHandOver) and record its result (CompleteHandedOver), against a
// redis-server the benchmark starts, with its append-only file synced on
// every write ("appendfsync-always") and without an append-only file
// ("no-aof"), so that the sync's share shows. It reports Redis's CPU per
// call (INFO cpu), the commands Redis ran per call and Redis's time per
// script (INFO commandstats).
//
//	go test ./registry/service/redisstore -run '^$' -bench CallScripts -benchtime 20000x -v
func BenchmarkCallScripts(b *testing.B) {
	for _, mode := range []struct{ name, appendonly string }{{"appendfsync-always", "yes"}, {"no-aof", "no"}} {
		b.Run(mode.name, func(b *testing.B) {
			_, url := startRedis(b)
			ctx := context.Background()
			opt, err := redis.ParseURL(url)
			if err != nil {
				b.Fatal(err)
			}
			admin := redis.NewClient(opt)
			b.Cleanup(func() { _ = admin.Close() })
			if err := admin.ConfigSet(ctx, "appendonly", mode.appendonly).Err(); err != nil {
				b.Fatal(err)
			}
			rdb := redis.NewClient(opt)
			b.Cleanup(func() { _ = rdb.Close() })
			st, err := redisstore.New(rdb, uniqueName(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = st.Close() })
			if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
				b.Fatal(err)
			}
			call := func(i int64) error {
				id := fmt.Sprintf("call-%d", i)
				rec := &service.CallRecord{CallID: id, Tool: tools.Ident("a.get"), Token: "t1", PayloadDigest: "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
					Revision: "r1", Endpoint: "http://127.0.0.1:8080/call", AdmittedAt: time.Now()}
				_, _, fence, err := st.AdmitAndHandOver(ctx, rec, "node-1", 3*time.Second)
				if err != nil {
					return err
				}
				_, err = st.CompleteHandedOver(ctx, id, fence, &registry.CallResult{CallID: id, Result: []byte(`{"text":"x"}`), CompletedAt: time.Now()})
				return err
			}
			if err := call(0); err != nil { // loads the scripts
				b.Fatal(err)
			}
			before, err := commandStats(ctx, admin)
			if err != nil {
				b.Fatal(err)
			}
			cpu := cpuClock{b, admin}
			b.ResetTimer()
			_, redisCPU := cpu.per(b.N, func() {
				var seq atomic.Int64
				var wg sync.WaitGroup
				for range scaleOutClients {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := seq.Add(1); i <= int64(b.N); i = seq.Add(1) {
							if err := call(i); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
			})
			b.StopTimer()
			after, err := commandStats(ctx, admin)
			if err != nil {
				b.Fatal(err)
			}
			cmds, perCall := statsDelta(before, after, b.N)
			evals := float64(after["evalsha"] - before["evalsha"])
			b.Logf("Redis commands per call %.2f: %s", perCall, cmds)
			b.ReportMetric(redisCPU, "redis-cpu-µs/call")
			b.ReportMetric(perCall, "redis-cmds/call")
			b.ReportMetric(float64(after["evalsha µs"]-before["evalsha µs"])/evals, "µs/script")
		})
	}
}
