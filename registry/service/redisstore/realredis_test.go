package redisstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

// redisURLEnv names the Redis that integration tests use: .ci/run starts
// a redis-server and exports its URL.
const redisURLEnv = "GOA_DISCOVERY_REDIS_URL"

// needReal skips a test that needs a real component which is absent, or
// fails it in CI, where .ci/run provides it.
func needReal(t testing.TB, what string) {
	t.Helper()
	realdeps.Absent(t, "redis-server", what)
}

// realRedis returns a client of the Redis at $GOA_DISCOVERY_REDIS_URL.
func realRedis(t testing.TB) *redis.Client {
	t.Helper()
	url := os.Getenv(redisURLEnv)
	if url == "" {
		needReal(t, redisURLEnv+" is not set")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("%s: %v", redisURLEnv, err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { _ = rdb.Close() })
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("%s=%s: %v", redisURLEnv, url, err)
	}
	return rdb
}

// redisServer returns the path of the redis-server program.
func redisServer(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		needReal(t, "redis-server is not on PATH")
	}
	return path
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// uniqueName is a registry name no other test uses on a shared Redis.
func uniqueName(t testing.TB) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return unsafeName.ReplaceAllString(t.Name(), "-") + "-" + hex.EncodeToString(b)
}

// lapsesByTheClock reports whether keys with a time to live expire by the
// wall clock in the subtest of eachRedis that t is: on the real Redis they
// do, on miniredis only when a test moves its clock.
func lapsesByTheClock(t *testing.T) bool { return strings.HasSuffix(t.Name(), "/redis-server") }

// eachRedis runs f on miniredis and on the real Redis.
func eachRedis(t *testing.T, f func(t *testing.T, rdb redis.UniversalClient, name string)) {
	t.Run("miniredis", func(t *testing.T) {
		_, rdb := newMini(t)
		f(t, rdb, "reg")
	})
	t.Run("redis-server", func(t *testing.T) {
		f(t, realRedis(t), uniqueName(t))
	})
}
