//go:build redisha

package redisstore_test

// The Sentinel suite (build tag redisha, run by .ci/steps/redis-sentinel):
// a primary, replicas and three sentinels from Debian's redis-server and
// redis-sentinel on loopback ports, and registry nodes on failover
// clients. With two replicas and WithReplicas(1), the primary is killed
// mid-storm: every acknowledged change is on both replicas (the store
// waits for every connected replica, replicas.go), so the replica the
// sentinels promote has them all, and writes go on as soon as the other
// replica follows it; the killed primary is started again and rejoins as a
// replica: nothing acknowledged is lost, and no call runs twice. Without
// WithReplicas, a failover to a replica that lacks the last changes loses
// them, and the nodes notice.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
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
	// A Redis that does not answer for a second is down. A sentinel whose
	// election fails tries again after twice failover-timeout: at 10 s, a
	// promotion that another sentinel won meanwhile has long reached it,
	// so two sentinels do not promote two replicas in turn (at 3 s, in a
	// CI run, one sentinel promoted a replica, another promoted the other
	// replica in a later epoch, and the first new primary was made a
	// replica of the second).
	conf := filepath.Join(dir, "sentinel.conf")
	text := fmt.Sprintf("bind %s\nport %s\ndir %s\nlogfile %s\nsentinel monitor reg %s %s 2\nsentinel down-after-milliseconds reg 1000\nsentinel failover-timeout reg 10000\nsentinel parallel-syncs reg 1\n",
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

// sentinelGroup starts a primary, n replicas of it and three sentinels
// monitoring it as "reg", each Redis with args, waits for the replicas to
// sync, and returns the primary, the replicas and the sentinels'
// addresses.
func sentinelGroup(t *testing.T, n int, args ...string) (primary *proc, primaryAddr string, replicas []*proc, replicaAddrs, sentinels []string) {
	t.Helper()
	dir := t.TempDir()
	primaryAddr = freeAddr(t)
	primary = redisProc(t, primaryAddr, filepath.Join(dir, "primary"), args...)
	rh, rp, _ := net.SplitHostPort(primaryAddr)
	for i := range n {
		a := freeAddr(t)
		replicas = append(replicas, redisProc(t, a, filepath.Join(dir, fmt.Sprintf("replica%d", i)), append([]string{"--replicaof", rh, rp}, args...)...))
		replicaAddrs = append(replicaAddrs, a)
	}
	// A failed test shows what the sentinels did: the failovers they
	// started, aborted and ended, and the replicas they reconfigured.
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for i := range 3 {
			text, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("sentinel%d", i), "sentinel.log"))
			t.Logf("sentinel %d's log:\n%s", i, text)
		}
	})
	for i := range 3 {
		a := freeAddr(t)
		sentinelProc(t, a, filepath.Join(dir, fmt.Sprintf("sentinel%d", i)), primaryAddr)
		sentinels = append(sentinels, a)
	}
	info := redis.NewClient(&redis.Options{Addr: primaryAddr})
	defer info.Close()
	waitFor(t, "the replicas to sync", func() bool {
		text, _ := info.Info(context.Background(), "replication").Result()
		return contains(text, fmt.Sprintf("connected_slaves:%d", n)) && strings.Count(text, "state=online") == n
	})
	// A group in service: each sentinel knows the other two and every
	// replica. Sentinels learn them from the primary some seconds after
	// they start; a primary lost before then is failed over by sentinels
	// that cannot agree, some more than once, and a failover they give up
	// can hand the primary's role back to the old primary when it is
	// restarted, with changes acknowledged since on the replicas only.
	for _, addr := range sentinels {
		sc := redis.NewSentinelClient(&redis.Options{Addr: addr})
		waitFor(t, "sentinel "+addr+" to know the other sentinels and the replicas", func() bool {
			m, err := sc.Master(context.Background(), "reg").Result()
			return err == nil && m["num-other-sentinels"] == "2" && m["num-slaves"] == strconv.Itoa(n)
		})
		_ = sc.Close()
	}
	return primary, primaryAddr, replicas, replicaAddrs, sentinels
}

// sentinelURL is the URL "registry serve --redis-sentinel" takes for the
// sentinels, failing fast while no primary answers.
func sentinelURL(sentinels []string) string {
	return "redis://" + sentinels[0] + "/0?master_name=reg&addr=" + sentinels[1] + "&addr=" + sentinels[2] +
		"&max_retries=-1&dial_timeout=200ms&read_timeout=3s"
}

// waitPromoted waits until the sentinels name a primary other than old,
// and returns its address.
func waitPromoted(t *testing.T, sentinels []string, old string) string {
	t.Helper()
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinels[0]})
	defer sc.Close()
	var promoted string
	waitFor(t, "the sentinels to promote a replica", func() bool {
		addr, err := sc.GetMasterAddrByName(context.Background(), "reg").Result()
		if err != nil {
			return false
		}
		promoted = net.JoinHostPort(addr[0], addr[1])
		return promoted != old
	})
	return promoted
}

// The primary killed mid-storm with two replicas and WithReplicas(1): the
// sentinels promote one replica, the other follows it, and calls are
// acknowledged again without waiting for the killed primary, which is
// started again once they are, and rejoins as a replica (the sentinels
// convert it some seconds after it is back). While it syncs, it is a
// connected replica that confirms nothing yet, and changes wait for it:
// with Redis's default repl-diskless-sync-delay (5 s) and with 0.
func TestSentinelFailoverMidStorm(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"sync-delay-0", []string{"--repl-diskless-sync-delay", "0"}},
		{"sync-delay-default", nil},
	} {
		t.Run(tc.name, func(t *testing.T) { testSentinelFailoverMidStorm(t, tc.args) })
	}
}

func testSentinelFailoverMidStorm(t *testing.T, args []string) {
	primary, primaryAddr, _, _, sentinels := sentinelGroup(t, 2, args...)
	name := uniqueName(t)
	var urls []string
	for range stormNodes {
		st, err := redisstore.OpenFailover(context.Background(), sentinelURL(sentinels), name, redisstore.WithReplicas(1, 2*time.Second))
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
	// The storm runs until the old primary is back as a replica and calls
	// are acknowledged after that.
	wg := s.run(stormWorkers, 100*stormOps, time.Now().Add(2*time.Minute))
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	acknowledged := func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.results)
	}

	s.waitOps(stormWorkers*stormOps/8, done)
	primary.kill()
	killed := time.Now()
	killedAt := s.ops.Load()
	newPrimary := waitPromoted(t, sentinels, primaryAddr)
	promoted1 := newPrimary
	promoted := time.Now()
	failedOverAt := s.ops.Load()
	acked := acknowledged()
	waitFor(t, "a call acknowledged after the promotion", func() bool { return acknowledged() > acked })
	resumed := time.Now()

	// The old primary comes back, as the new one's replica.
	primary.run()
	restarted := time.Now()
	pause, stop := longestPause(s)
	// The sentinels convert it some 8 s after it is back; they may also
	// have failed over again meanwhile (a promotion not confirmed within
	// failover-timeout is given up and another replica promoted), so the
	// primary is asked of them each time.
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinels[0]})
	defer sc.Close()
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var text string
		addr, err := sc.GetMasterAddrByName(context.Background(), "reg").Result()
		if err == nil {
			newPrimary = net.JoinHostPort(addr[0], addr[1])
			info := redis.NewClient(&redis.Options{Addr: newPrimary})
			text, err = info.Info(context.Background(), "replication").Result()
			_ = info.Close()
		}
		if err == nil && contains(text, "connected_slaves:2") && strings.Count(text, "state=online") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 90s for the old primary to rejoin the primary %s as a replica and sync: %v; its INFO replication:\n%s", newPrimary, err, text)
		}
	}
	rejoined := time.Now()
	acked = acknowledged()
	waitFor(t, "a call acknowledged after the old primary synced", func() bool { return acknowledged() > acked+stormWorkers })
	close(stop)
	s.halt.Store(true)
	<-done
	t.Logf("%d operations, primary killed after %d, replica promoted after %d; %d calls acknowledged", s.ops.Load(), killedAt, failedOverAt, len(s.results))
	t.Logf("promotion %v after the kill; first call acknowledged %v after the promotion", promoted.Sub(killed).Round(time.Millisecond), resumed.Sub(promoted).Round(time.Millisecond))
	if newPrimary != promoted1 {
		t.Logf("the sentinels failed over again, to %s", newPrimary)
	}
	t.Logf("old primary synced as a replica %v after its restart; longest pause in acknowledged calls from its restart until it synced %v", rejoined.Sub(restarted).Round(time.Millisecond), (<-pause).Round(time.Millisecond))
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

// longestPause measures, from now until stop is closed, the longest time
// in which the storm acknowledged no call, and sends it on pause then.
func longestPause(s *storm) (pause <-chan time.Duration, stop chan<- struct{}) {
	out, halt := make(chan time.Duration, 1), make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		n, last, longest := -1, time.Now(), time.Duration(0)
		for {
			select {
			case <-halt:
				out <- longest
				return
			case now := <-tick.C:
				s.mu.Lock()
				m := len(s.results)
				s.mu.Unlock()
				if m != n {
					n, last = m, now
				} else {
					longest = max(longest, now.Sub(last))
				}
			}
		}
	}()
	return out, halt
}

// A failover without WithReplicas to a replica that lacks the last
// changes (it is stopped and cut off while they are made, then the
// primary is killed):
// the nodes find that Redis lost changes it acknowledged, drop their
// caches and serve what the promoted replica holds; publishes and calls
// succeed again and none runs without end (see forget_test.go).
func TestSentinelFailoverToAReplicaThatLacksChanges(t *testing.T) {
	primary, primaryAddr, replicas, _, sentinels := sentinelGroup(t, 1)
	name := uniqueName(t)
	nodes, busy := forgetNodes(t, 2, func() (*redisstore.Store, error) {
		return redisstore.OpenFailover(context.Background(), sentinelURL(sentinels), name)
	})
	s := newForgetStorm(t, nodes, busy, newProvider(t))
	done := s.run(4)
	s.waitOps(40, done)
	forgotten(t, "redis://"+primaryAddr, func() {
		// The replica stops, and the primary drops its link, so that it
		// gets nothing more until it is promoted.
		replicas[0].signal(syscall.SIGSTOP)
		rdb := redis.NewClient(&redis.Options{Addr: primaryAddr})
		defer rdb.Close()
		if err := rdb.ClientKillByFilter(context.Background(), "TYPE", "replica").Err(); err != nil {
			t.Fatal(err)
		}
	}, func() string {
		n := s.ops.Load()
		s.waitOps(n+40, done) // changes the replica does not get
		primary.kill()
		replicas[0].signal(syscall.SIGCONT)
		return "redis://" + waitPromoted(t, sentinels, primaryAddr)
	})
	s.markLost(6 * time.Second)
	<-done
	t.Logf("%d operations; %d requests failed; the replica promoted at %v", s.ops.Load(), len(s.errs), s.lostAt())
	check, err := redisstore.OpenFailover(context.Background(), sentinelURL(sentinels), name, redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	s.verify(check)
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
