package redisstore_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service/attempttest"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// The Redis store fences attempts by the rules of attempttest.Fencing; a
// claim lapses as its deadline passes (here, as its field is deleted).
func TestAttemptFencing(t *testing.T) { eachRedis(t, testAttemptFencing) }

func testAttemptFencing(t *testing.T, rdb redis.UniversalClient, name string) {
	st, _ := redisstore.New(rdb, name)
	if _, err := st.PutRegistration(context.Background(), reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	attempttest.Fencing(t, st, func(id string) {
		if err := rdb.HDel(context.Background(), "goa-discovery:{"+name+"}:call:"+id, "claim").Err(); err != nil {
			t.Fatal(err)
		}
	})
}
