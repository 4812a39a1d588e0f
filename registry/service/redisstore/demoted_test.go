//go:build redisha

package redisstore_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// replicaPair starts a primary and one replica of it, waits for the
// replica to sync, and returns clients of both.
func replicaPair(t *testing.T) (primary, replica *redis.Client, primaryAddr, replicaAddr string) {
	t.Helper()
	dir := t.TempDir()
	primaryAddr, replicaAddr = freeAddr(t), freeAddr(t)
	redisProc(t, primaryAddr, filepath.Join(dir, "primary"))
	host, port, _ := net.SplitHostPort(primaryAddr)
	redisProc(t, replicaAddr, filepath.Join(dir, "replica"), "--replicaof", host, port)
	primary = redis.NewClient(&redis.Options{Addr: primaryAddr})
	replica = redis.NewClient(&redis.Options{Addr: replicaAddr})
	t.Cleanup(func() { _ = primary.Close(); _ = replica.Close() })
	waitFor(t, "the replica to sync", func() bool {
		text, _ := primary.Info(context.Background(), "replication").Result()
		return contains(text, "connected_slaves:1") && contains(text, "state=online")
	})
	return primary, replica, primaryAddr, replicaAddr
}

// A primary that the sentinels turn into a replica while a store still
// talks to it (a failover client's connections outlive the switch by a
// moment): every read and change fails as unreachable, which clients
// retry, never as an internal failure of the registry.
func TestPrimaryDemotedUnderTheStore(t *testing.T) {
	primary, replica, _, replicaAddr := replicaPair(t)
	ctx := context.Background()
	st, err := redisstore.New(primary, uniqueName(t), redisstore.WithReplicas(1, time.Second), redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	if err := replica.ReplicaOf(ctx, "NO", "ONE").Err(); err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(replicaAddr)
	if err := primary.ReplicaOf(ctx, host, port).Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the old primary to sync as a replica", func() bool {
		text, _ := replica.Info(ctx, "replication").Result()
		return contains(text, "connected_slaves:1") && contains(text, "state=online")
	})
	for _, tc := range []struct {
		op string
		do func() error
	}{
		{"read the registrations", func() error { _, _, err := st.Registrations(ctx); return err }},
		{"read a call", func() error { _, err := st.Call(ctx, "c1"); return err }},
		{"publish", func() error { _, err := st.PutRegistration(ctx, reg("b", "t2"), ""); return err }},
	} {
		if err := tc.do(); !errors.Is(err, service.ErrUnavailable) {
			t.Errorf("%s on a demoted primary = %v, want service.ErrUnavailable", tc.op, err)
		}
	}
}

// flushScripts is a hook that empties the Redis script cache before each
// command and pipeline, as a failover to a primary that never loaded the
// scripts does between any two round trips.
type flushScripts struct{ rdb *redis.Client }

func (f flushScripts) DialHook(next redis.DialHook) redis.DialHook { return next }

func (f flushScripts) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		f.flush(ctx)
		return next(ctx, cmd)
	}
}

func (f flushScripts) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		f.flush(ctx)
		return next(ctx, cmds)
	}
}

func (f flushScripts) flush(ctx context.Context) { _ = f.rdb.ScriptFlush(ctx).Err() }

// Scripts lost again after the store loaded them (a second failover
// between its SCRIPT LOAD and its EVALSHA): reads and changes still
// succeed, with replicas confirming them.
func TestScriptsLostBetweenLoadAndRun(t *testing.T) {
	_, _, primaryAddr, _ := replicaPair(t)
	ctx := context.Background()
	flusher := redis.NewClient(&redis.Options{Addr: primaryAddr})
	t.Cleanup(func() { _ = flusher.Close() })
	rdb := redis.NewClient(&redis.Options{Addr: primaryAddr})
	t.Cleanup(func() { _ = rdb.Close() })
	rdb.AddHook(flushScripts{flusher})
	st, err := redisstore.New(rdb, uniqueName(t), redisstore.WithReplicas(1, 2*time.Second), redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatalf("publish with the scripts flushed before each round trip: %v", err)
	}
	_, regs, err := st.Registrations(ctx)
	if err != nil {
		t.Fatalf("read with the scripts flushed before each round trip: %v", err)
	}
	if len(regs) != 1 || !strings.EqualFold(regs[0].Toolset.Name, "a") {
		t.Fatalf("read %d registrations (%v), want toolset a", len(regs), regs)
	}
}
