package redisstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

func TestStoreOptions(t *testing.T) {
	_, rdb := newMini(t)
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:1"}})
	t.Cleanup(func() { _ = cluster.Close() })
	for _, tc := range []struct {
		name string
		rdb  redis.UniversalClient
		opts []redisstore.Option
		want string
	}{
		{"negative staleness", rdb, []redisstore.Option{redisstore.WithMaxStaleness(-time.Second)}, "max staleness -1s is negative"},
		{"negative replicas", rdb, []redisstore.Option{redisstore.WithReplicas(-1, time.Second)}, "-1 replicas is negative"},
		{"no replica timeout", rdb, []redisstore.Option{redisstore.WithReplicas(1, 0)}, "replica timeout 0s must be positive"},
		{"replicas on a cluster", cluster, []redisstore.Option{redisstore.WithReplicas(1, time.Second)}, "not a cluster client"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := redisstore.New(tc.rdb, "reg", tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// With WithReplicas, a change that the replicas did not confirm in time is
// not acknowledged: it fails as unreachable (it may have been made), and
// so does a read of a state they did not confirm.
func TestChangesWaitForReplicas(t *testing.T) {
	rdb := realRedis(t) // a server with no replica
	ctx := context.Background()
	st, err := redisstore.New(rdb, uniqueName(t), redisstore.WithReplicas(1, 20*time.Millisecond), redisstore.WithMaxStaleness(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); !errors.Is(err, service.ErrUnavailable) || !strings.Contains(err.Error(), "0 of 1 replicas confirmed") {
		t.Fatalf("publish with no replica = %v, want ErrUnavailable naming the replicas", err)
	}
	if _, _, err := st.Registrations(ctx); !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("read with no replica = %v, want ErrUnavailable", err)
	}
	if _, err := st.Call(ctx, "c1"); !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("read of a call with no replica = %v, want ErrUnavailable", err)
	}
}
