//go:build redisha

package redisstore_test

// The Sentinel suite (build tag redisha, run by .ci/steps/redis-sentinel):
// one primary, one replica and three sentinels from Debian's redis-server
// and redis-sentinel on loopback ports, three registry nodes on failover
// clients with WithReplicas(1): the primary is killed mid-storm, the
// sentinels promote the replica, the killed primary is started again and
// rejoins as a replica, and the storm goes on. Nothing acknowledged is
// lost, and no call runs twice.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service/redisstore"
)

// redisProc returns a redis-server (or, with sentinel, a redis-sentinel
// of the primary "reg" at primary) on addr, with its data in dir.
func redisProc(t *testing.T, addr, dir string, args ...string) *proc {
	t.Helper()
	bin := redisServer(t)
	host, port, _ := net.SplitHostPort(addr)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ping := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { _ = ping.Close() })
	p := &proc{t: t, name: "redis " + addr, start: func() *exec.Cmd {
		return exec.Command(bin, append([]string{"--bind", host, "--port", port, "--dir", dir,
			"--appendonly", "yes", "--appendfsync", "always", "--save", "",
			"--logfile", filepath.Join(dir, "redis.log")}, args...)...)
	}, ready: func() error { return ping.Ping(context.Background()).Err() }}
	p.run()
	t.Cleanup(p.kill)
	return p
}

func sentinelProc(t *testing.T, addr, dir, primary string) *proc {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	ph, pp, _ := net.SplitHostPort(primary)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "sentinel.conf")
	text := fmt.Sprintf("bind %s\nport %s\ndir %s\nlogfile %s\nsentinel monitor reg %s %s 2\nsentinel down-after-milliseconds reg 500\nsentinel failover-timeout reg 3000\nsentinel parallel-syncs reg 1\n",
		host, port, dir, filepath.Join(dir, "sentinel.log"), ph, pp)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ping := redis.NewSentinelClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { _ = ping.Close() })
	p := &proc{t: t, name: "sentinel " + addr, start: func() *exec.Cmd {
		return exec.Command(redisServer(t), conf, "--sentinel")
	}, ready: func() error { return ping.Ping(context.Background()).Err() }}
	p.run()
	t.Cleanup(p.kill)
	return p
}

func TestSentinelFailoverMidStorm(t *testing.T) {
	dir := t.TempDir()
	primaryAddr, replicaAddr := freeAddr(t), freeAddr(t)
	primary := redisProc(t, primaryAddr, filepath.Join(dir, "primary"))
	rh, rp, _ := net.SplitHostPort(primaryAddr)
	redisProc(t, replicaAddr, filepath.Join(dir, "replica"), "--replicaof", rh, rp)
	var sentinels []string
	for i := range 3 {
		a := freeAddr(t)
		sentinelProc(t, a, filepath.Join(dir, fmt.Sprintf("sentinel%d", i)), primaryAddr)
		sentinels = append(sentinels, a)
	}
	waitFor(t, "the replica to sync", func() bool {
		info, _ := redis.NewClient(&redis.Options{Addr: primaryAddr}).Info(context.Background(), "replication").Result()
		return containsAll(info, "connected_slaves:1", "state=online")
	})

	name := uniqueName(t)
	var urls []string
	for range stormNodes {
		// The URL "registry serve --redis-sentinel" takes.
		url := "redis://" + sentinels[0] + "/0?master_name=reg&addr=" + sentinels[1] + "&addr=" + sentinels[2] +
			"&max_retries=-1&dial_timeout=200ms&read_timeout=3s"
		st, err := redisstore.OpenFailover(context.Background(), url, name, redisstore.WithReplicas(1, 2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		svc, err := service.New(service.WithStore(st), service.WithInsecure())
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(svc.Handler())
		t.Cleanup(func() { srv.Close(); _ = svc.Close() })
		urls = append(urls, srv.URL)
	}
	s := newStorm(t, urls, newProvider(t), 200)
	wg := s.run(stormWorkers, stormOps, time.Now().Add(40*time.Second))
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	s.waitOps(stormWorkers*stormOps/8, done)
	primary.kill()
	killedAt := s.ops.Load()
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinels[0]})
	defer sc.Close()
	waitFor(t, "the sentinels to promote the replica", func() bool {
		addr, err := sc.GetMasterAddrByName(context.Background(), "reg").Result()
		return err == nil && net.JoinHostPort(addr[0], addr[1]) == replicaAddr
	})
	failedOverAt := s.ops.Load()
	// The old primary comes back as the new one's replica: WAIT 1 is
	// answered again.
	primary.run()
	<-done
	t.Logf("%d operations, primary killed after %d, replica promoted after %d; %d calls acknowledged", s.ops.Load(), killedAt, failedOverAt, len(s.results))
	if failedOverAt >= s.ops.Load() {
		t.Fatal("the storm ended before the failover; nothing was tested")
	}
	unknown := 0
	for _, err := range s.errs {
		switch {
		case errors.Is(err, registry.ErrCallOutcomeUnknown):
			unknown++
		case errors.Is(err, registry.ErrOverloaded):
			// Redis unreachable, or not replicated in time: retryable.
		default:
			t.Errorf("during the failover, a client saw: %v", err)
		}
	}
	t.Logf("%d calls have an unknown outcome (sent, result not recorded before the failover); %d errors in all", unknown, len(s.errs))
	s.verify()
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !contains(s, sub) {
			return false
		}
	}
	return true
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
