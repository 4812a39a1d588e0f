package redisstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// Each URL form is parsed by its own opener; a bad one is refused before
// any connection, with what is wrong.
func TestOpenRefusesBadURLs(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		open    func(context.Context, string, string, ...redisstore.Option) (*redisstore.Store, error)
		url     string
		errPart string
	}{
		{"redis scheme", redisstore.Open, "http://127.0.0.1:1", "registry store redis: URL"},
		{"redis option", redisstore.Open, "redis://127.0.0.1:1?no_such_option=1", "no_such_option"},
		{"sentinel scheme", redisstore.OpenFailover, "http://127.0.0.1:1?master_name=reg", "registry store redis: Sentinel URL"},
		{"sentinel without primary", redisstore.OpenFailover, "redis://127.0.0.1:1", "names no primary: add ?master_name=NAME"},
		{"sentinel option", redisstore.OpenFailover, "redis://127.0.0.1:1?master_name=reg&no_such_option=1", "no_such_option"},
		{"cluster scheme", redisstore.OpenCluster, "unix:///tmp/redis.sock", "registry store redis: Cluster URL"},
		{"cluster option", redisstore.OpenCluster, "redis://127.0.0.1:1?no_such_option=1", "no_such_option"},
		{"cluster with replicas", func(ctx context.Context, url, name string, opts ...redisstore.Option) (*redisstore.Store, error) {
			return redisstore.OpenCluster(ctx, url, name, redisstore.WithReplicas(1, 1e9))
		}, "redis://127.0.0.1:1", "WithReplicas needs a client of one primary"},
		{"redis unreachable", redisstore.Open, "redis://127.0.0.1:1?max_retries=-1", "registry store redis 127.0.0.1:1"},
		{"sentinels unreachable", redisstore.OpenFailover, "redis://127.0.0.1:1?master_name=reg&max_retries=-1&dial_timeout=100ms&dialer_retries=1", `primary "reg" of sentinels 127.0.0.1:1`},
		{"cluster unreachable", redisstore.OpenCluster, "redis://127.0.0.1:1?max_retries=-1", "registry store redis cluster 127.0.0.1:1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, err := tc.open(ctx, tc.url, "reg")
			if err == nil {
				_ = st.Close()
				t.Fatalf("opened %s", tc.url)
			}
			if !strings.Contains(err.Error(), tc.errPart) {
				t.Fatalf("error %q, want it to contain %q", err, tc.errPart)
			}
		})
	}
}
