package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// TestChangesWaitForEveryConnectedReplica: with WithReplicas(1) and a
// primary with two replicas, a change is acknowledged only once every
// replica connected to the primary has it: not while a replica that has
// just joined is still syncing, nor while one is stopped with its
// connection open; and, once a replica is gone, with the one left. On the
// code before, WAIT 1 acknowledged a change the other replica lacked, and
// a failover that promoted that replica lost it.
func TestChangesWaitForEveryConnectedReplica(t *testing.T) {
	ctx := context.Background()
	// A replica that connects waits 2 s for its sync: it is connected,
	// and cannot confirm anything meanwhile.
	_, url := startRedisWith(t, "--appendonly", "no", "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "2")
	opt, _ := redis.ParseURL(url)
	host, port, _ := net.SplitHostPort(opt.Addr)
	primary := redis.NewClient(opt)
	t.Cleanup(func() { _ = primary.Close() })
	replicas := func(connected, online int) func() bool {
		return func() bool {
			info, _ := primary.Info(ctx, "replication").Result()
			return strings.Contains(info, fmt.Sprintf("connected_slaves:%d\r\n", connected)) && strings.Count(info, "state=online") == online
		}
	}
	_, _ = startRedisWith(t, "--appendonly", "no", "--replicaof", host, port)
	waitFor(t, "the first replica to sync", replicas(1, 1))

	st, err := redisstore.Open(ctx, url, uniqueName(t), redisstore.WithReplicas(1, 300*time.Millisecond), redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	put := func(toolset string) error {
		_, err := st.PutRegistration(ctx, reg(toolset, "t1"), "")
		return err
	}
	wantUnconfirmed := func(toolset, why string) {
		t.Helper()
		if err := put(toolset); !errors.Is(err, service.ErrUnavailable) || !strings.Contains(err.Error(), "1 of 2 replicas confirmed") {
			t.Fatalf("publish %s %s = %v; want ErrUnavailable naming 1 of 2 replicas", toolset, why, err)
		}
	}
	if err := put("a"); err != nil {
		t.Fatalf("publish with one replica: %v", err)
	}

	second, _ := startRedisWith(t, "--appendonly", "no", "--replicaof", host, port)
	waitFor(t, "the second replica to connect", replicas(2, 1))
	wantUnconfirmed("b", "while a replica that joined syncs")
	waitFor(t, "the second replica to sync", replicas(2, 2))
	if err := put("c"); err != nil {
		t.Fatalf("publish with both replicas online: %v", err)
	}

	second.signal(syscall.SIGSTOP)
	wantUnconfirmed("d", "while a connected replica is stopped")
	second.signal(syscall.SIGCONT)
	if err := put("e"); err != nil {
		t.Fatalf("publish once the replica runs again: %v", err)
	}

	second.kill()
	waitFor(t, "the primary to drop the killed replica", replicas(1, 1))
	if err := put("f"); err != nil {
		t.Fatalf("publish with the replica left: %v", err)
	}
}
