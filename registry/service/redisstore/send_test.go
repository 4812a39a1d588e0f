package redisstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
)

// A new call, on a node whose generation watch is confirmed, makes two
// Redis round trips: admit, claim and hand over in one script, record the
// result in another.
func TestCallInTwoRoundTrips(t *testing.T) { eachRedis(t, testCallInTwoRoundTrips) }

func testCallInTwoRoundTrips(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	counted := redis.NewClient(rdb.(*redis.Client).Options())
	t.Cleanup(func() { _ = counted.Close() })
	trips := newRoundTrips()
	counted.AddHook(trips)
	p := newProvider(t)
	node := newNode(t, counted, name)
	r := publish(t, node, p, "notes", "1", "r1")
	// The first call loads the scripts; the watch confirms meanwhile.
	if _, err := node.CallResolvedTool(ctx, get("warm", "notes", r.Token, "x")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watch to be confirmed", func() bool {
		trips.take()
		_, err := node.ListToolsets(ctx)
		n, _ := trips.take()
		return err == nil && len(n) == 0
	})
	for i := range 5 {
		trips.take()
		res, err := node.CallResolvedTool(ctx, get(fmt.Sprintf("c%d", i), "notes", r.Token, "x"))
		if err != nil || string(res.Result) != `{"text":"note x"}` {
			t.Fatalf("call: %v, %v", res, err)
		}
		n, _ := trips.take()
		total := 0
		for _, c := range n {
			total += c
		}
		if total != 2 || n["evalsha call"] != 2 {
			t.Fatalf("a new call made round trips %v; want two scripts", n)
		}
	}
}
