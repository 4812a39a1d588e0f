package redisstore

// Opening a store from the URL an operator gives: one Redis, a primary
// that Redis Sentinel names, or a Redis Cluster, each in go-redis's URL
// form, whose query sets the client's options (dial_timeout, max_retries,
// pool_size, ...; an unknown one is an error). The client always respects
// its callers' deadlines (ContextTimeoutEnabled), so that a readiness
// check (service.ReadyTimeout) or a request's deadline bounds a command
// to a Redis that stopped answering, not go-redis's read timeout and
// retries.

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Open connects to the Redis at url (redis://[user:password@]host:port/db,
// rediss:// for TLS, or unix://path) and returns the store of the registry
// called name.
func Open(ctx context.Context, url, name string, opts ...Option) (*Store, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("registry store redis: URL: %w", err)
	}
	opt.ContextTimeoutEnabled = true
	return open(ctx, redis.NewClient(opt), opt.Addr, name, opts)
}

// OpenFailover connects to the primary that the Redis Sentinels at url
// name, following it across failovers, and returns the store of the
// registry called name. url is
// redis://[user:password@]sentinel:port/db?master_name=NAME[&addr=sentinel2:port]...
// (the user and password are the sentinels'; the query's username and
// password the primary's). With WithReplicas, an acknowledged change
// survives a failover; see the package comment.
func OpenFailover(ctx context.Context, url, name string, opts ...Option) (*Store, error) {
	opt, err := redis.ParseFailoverURL(url)
	if err != nil {
		return nil, fmt.Errorf("registry store redis: Sentinel URL: %w", err)
	}
	if opt.MasterName == "" {
		return nil, fmt.Errorf("registry store redis: Sentinel URL names no primary: add ?master_name=NAME")
	}
	opt.ContextTimeoutEnabled = true
	where := fmt.Sprintf("primary %q of sentinels %s", opt.MasterName, strings.Join(opt.SentinelAddrs, ","))
	return open(ctx, redis.NewFailoverClient(opt), where, name, opts)
}

// OpenCluster connects to the Redis Cluster whose nodes include those at
// url, redis://[user:password@]host:port[?addr=host2:port]..., and returns
// the store of the registry called name, whose keys are all in one hash
// slot. WithReplicas is refused: see New.
func OpenCluster(ctx context.Context, url, name string, opts ...Option) (*Store, error) {
	opt, err := redis.ParseClusterURL(url)
	if err != nil {
		return nil, fmt.Errorf("registry store redis: Cluster URL: %w", err)
	}
	opt.ContextTimeoutEnabled = true
	return open(ctx, redis.NewClusterClient(opt), "cluster "+strings.Join(opt.Addrs, ","), name, opts)
}

// open makes the store of rdb, which it then owns, and checks that Redis
// answers.
func open(ctx context.Context, rdb redis.UniversalClient, where, name string, opts []Option) (*Store, error) {
	st, err := New(rdb, name, opts...)
	if err != nil {
		_ = rdb.Close()
		return nil, err
	}
	st.own = true
	if err := st.rdb.Ping(ctx).Err(); err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("registry store redis %s: %w", where, classify(err))
	}
	return st, nil
}
