//go:build redisha

package redisstore_test

// The Redis Cluster suite (build tag redisha, run by
// .ci/steps/redis-cluster): three primaries from Debian's redis-server on
// loopback ports, joined with redis-cli --cluster create, and registries
// whose names hash to different slots, each served by three nodes on
// cluster clients. Every script's keys share the registry's hash tag, so
// none is refused as CROSSSLOT; the generation watch listens on the
// registry's sharded channel.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

func TestRedisClusterStorm(t *testing.T) {
	dir := t.TempDir()
	var addrs []string
	for i := range 3 {
		a := freeAddr(t)
		redisProc(t, a, filepath.Join(dir, fmt.Sprint(i)), "--cluster-enabled", "yes",
			"--cluster-config-file", filepath.Join(dir, fmt.Sprint(i), "nodes.conf"), "--cluster-node-timeout", "2000")
		addrs = append(addrs, a)
	}
	out, err := exec.Command("redis-cli", append([]string{"--cluster", "create"}, append(addrs, "--cluster-replicas", "0", "--cluster-yes")...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, out)
	}
	waitFor(t, "the cluster to be ok", func() bool {
		for _, a := range addrs {
			info, _ := redis.NewClient(&redis.Options{Addr: a}).ClusterInfo(context.Background()).Result()
			if !strings.Contains(info, "cluster_state:ok") {
				return false
			}
		}
		return true
	})
	ctx := context.Background()
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { _ = admin.Close() })
	// Registries on at least two of the three primaries.
	owners := map[string]bool{}
	var names []string
	for i := 0; len(owners) < 2 || len(names) < 3; i++ {
		name := fmt.Sprintf("%s-%d", uniqueName(t), i)
		m, err := admin.MasterForKey(ctx, "goa-discovery:{"+name+"}:gen")
		if err != nil {
			t.Fatal(err)
		}
		owners[m.Options().Addr] = true
		names = append(names, name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var urls []string
			var stores []*redisstore.Store
			for range stormNodes {
				// The URL "registry serve --redis-cluster" takes.
				st, err := redisstore.OpenCluster(ctx, "redis://"+addrs[0]+"?addr="+addrs[1]+"&addr="+addrs[2]+"&max_retries=2", name)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = st.Close() })
				svc, err := service.New(service.WithStore(st), service.WithInsecure(), service.WithCallRetention(time.Hour))
				if err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewServer(svc.Handler())
				t.Cleanup(func() { srv.Close(); _ = svc.Close() })
				urls, stores = append(urls, srv.URL), append(stores, st)
			}
			s := newStorm(t, urls, newProvider(t), 40)
			s.run(stormWorkers, 60, time.Now().Add(20*time.Second)).Wait()
			for _, err := range s.errs {
				t.Errorf("a client saw: %v", err)
			}
			s.verify()
			// The watch heard the changes: a node's generation is the
			// one in Redis without a round trip.
			want, err := admin.Get(ctx, "goa-discovery:{"+name+"}:gen").Uint64()
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the watch to hear the last change", func() bool {
				g, err := stores[2].Generation(ctx)
				return err == nil && g == want
			})
			// Forgetting touches keys the script builds from the call IDs,
			// all in the registry's slot.
			n, err := stores[0].Forget(ctx, time.Now().Add(time.Hour), func(string) bool { return false })
			if err != nil || n != len(s.results) {
				t.Fatalf("forget = %d, %v; want the %d calls", n, err, len(s.results))
			}
		})
	}
}
