package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Once its watch is confirmed, a store tells the generation with no
// Redis round trip, and hears another store's change.
func TestGenerationFromTheWatch(t *testing.T) { eachRedis(t, testGenerationFromTheWatch) }

func testGenerationFromTheWatch(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	opt := rdb.(*redis.Client).Options()
	watched := redis.NewClient(opt)
	t.Cleanup(func() { _ = watched.Close() })
	trips := newRoundTrips()
	watched.AddHook(trips)
	const bound = 200 * time.Millisecond
	st, err := redisstore.New(watched, name, redisstore.WithMaxStaleness(bound))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	other, err := redisstore.New(rdb, name, redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	gen, err := other.PutRegistration(ctx, reg("a", "t1"), "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watch to be confirmed", func() bool {
		trips.take()
		g, err := st.Generation(ctx)
		n, _ := trips.take()
		return err == nil && g == gen && len(n) == 0
	})
	for range 100 {
		if g, err := st.Generation(ctx); err != nil || g != gen {
			t.Fatalf("generation = %d, %v; want %d", g, err, gen)
		}
	}
	if n, _ := trips.take(); len(n) > 0 {
		t.Fatalf("100 generations read from a confirmed watch made round trips %v", n)
	}
	gen2, err := other.PutRegistration(ctx, reg("a", "t2"), registry.Token("t1"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watch to hear the second change", func() bool {
		g, err := st.Generation(ctx)
		return err == nil && g == gen2
	})
	if !lapsesByTheClock(t) {
		return // miniredis cannot kill a client
	}
	// The subscription cut: the watch asks Redis until it has subscribed
	// again and read the generation, and then hears changes again.
	if err := rdb.Do(ctx, "CLIENT", "KILL", "TYPE", "pubsub").Err(); err != nil {
		t.Fatal(err)
	}
	gen3, err := other.PutRegistration(ctx, reg("a", "t3"), registry.Token("t2"))
	if err != nil {
		t.Fatal(err)
	}
	// The contract: a read begun more than the bound after the change was
	// acknowledged has it (one begun sooner may not).
	acked := time.Now()
	for time.Since(acked) < 2*bound {
		began := time.Now()
		g, err := st.Generation(ctx)
		if err != nil || began.Sub(acked) > bound && g != gen3 {
			t.Fatalf("generation read %v after the change, the subscription cut = %d, %v; want %d", began.Sub(acked), g, err, gen3)
		}
		waitABit()
	}
	waitFor(t, "the watch to be confirmed again", func() bool {
		trips.take()
		g, err := st.Generation(ctx)
		n, _ := trips.take()
		return err == nil && g == gen3 && len(n) == 0
	})
}

// A node refuses nothing another node acknowledged, however stale its
// cache may be: a refusal is decided on a fresh read.
func TestRefusalsReadAgain(t *testing.T) { eachRedis(t, testRefusalsReadAgain) }

func testRefusalsReadAgain(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	p := newProvider(t)
	// b's cache stays stale for an hour unless it reads Redis.
	a, b := newNode(t, rdb, name), newNodeOf(t, rdb, name, []redisstore.Option{redisstore.WithMaxStaleness(time.Hour)})
	r1 := publish(t, a, p, "notes", "1", "r1")
	if _, err := b.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}}); err != nil {
		t.Fatal(err)
	}
	r2 := publish(t, a, p, "notes", "2", "r2")
	if _, err := b.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes", Version: "2"}}); err != nil {
		t.Fatalf("resolve of the version another node published: %v", err)
	}
	if _, err := b.CallResolvedTool(ctx, get("c1", "notes", r2.Token, "x")); err != nil {
		t.Fatalf("call under the token another node published: %v", err)
	}
	_, err := b.CallResolvedTool(ctx, get("c2", "notes", r1.Token, "x"))
	wantCode(t, err, registry.CodeCallNotAdmitted)
}
