package main

// The Redis store of "registry serve": one Redis (--redis), a primary that
// Redis Sentinel names (--redis-sentinel) or a Redis Cluster
// (--redis-cluster), each a go-redis URL, with the store's staleness bound
// and replicated acknowledgements.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// defaultReplicaTimeout is how long a change waits for --redis-replicas
// replicas unless --redis-replica-timeout says otherwise.
const defaultReplicaTimeout = time.Second

// redisFlags are the Redis store's flags of "registry serve".
type redisFlags struct {
	single, sentinel, cluster string
	maxStale                  time.Duration
	replicas                  int
	replicaTimeout            time.Duration
}

func (r *redisFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&r.single, "redis", "", "keep the registry in the Redis at this URL (redis://[user:password@]host:port/db), shared by every node given the same --name")
	fs.StringVar(&r.sentinel, "redis-sentinel", "", "keep the registry in the Redis primary that these sentinels name, following failovers: redis://[user:password@]sentinel:port/db?master_name=NAME[&addr=sentinel2:port]... (the user and password are the sentinels'; the query's username and password the primary's)")
	fs.StringVar(&r.cluster, "redis-cluster", "", "keep the registry in the Redis Cluster with these nodes: redis://[user:password@]host:port[?addr=host2:port]... (the registry's keys are in one hash slot)")
	fs.DurationVar(&r.maxStale, "redis-max-staleness", redisstore.DefaultMaxStaleness, "with a Redis store, answer reads from the node's cache while it has heard every change acknowledged more than this long ago (0: every read asks Redis)")
	fs.IntVar(&r.replicas, "redis-replicas", 0, "with --redis or --redis-sentinel, acknowledge a change only once every replica connected to the primary has it, and at least this many (Redis WAIT), so that a failover loses nothing acknowledged; run one replica more than this to keep writing while one Redis is down")
	fs.DurationVar(&r.replicaTimeout, "redis-replica-timeout", defaultReplicaTimeout, "with --redis-replicas, how long a change waits for the replicas before it fails as unavailable")
}

// url is the URL of the store given, "" for none.
func (r *redisFlags) url() string {
	switch {
	case r.single != "":
		return r.single
	case r.sentinel != "":
		return r.sentinel
	}
	return r.cluster
}

// kind says which Redis the store is in, for the start-up line.
func (r *redisFlags) kind() string {
	switch {
	case r.sentinel != "":
		return "Redis (Sentinel)"
	case r.cluster != "":
		return "Redis Cluster"
	}
	return "Redis"
}

// check refuses the combinations of the store's flags, and of --data,
// --name and --provider-lease, that do not make one store.
func (r *redisFlags) check(fs *flag.FlagSet, data, name string, lease time.Duration) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	given := 0
	for _, u := range []string{r.single, r.sentinel, r.cluster} {
		if u != "" {
			given++
		}
	}
	switch {
	case given > 1:
		return errors.New("--redis, --redis-sentinel and --redis-cluster exclude each other")
	case given == 1 && data != "":
		return errors.New("a Redis store (--redis, --redis-sentinel, --redis-cluster) and --data exclude each other")
	case (given == 1) != (name != ""):
		return errors.New("--name and a Redis store (--redis, --redis-sentinel or --redis-cluster) go together")
	case lease < 0 || (lease > 0 && given == 0):
		return fmt.Errorf("--provider-lease must not be negative and needs a Redis store, got %v", lease)
	case given == 0:
		for _, f := range []string{"redis-max-staleness", "redis-replicas", "redis-replica-timeout"} {
			if set[f] {
				return fmt.Errorf("--%s needs a Redis store (--redis, --redis-sentinel or --redis-cluster)", f)
			}
		}
		return nil
	case r.maxStale < 0:
		return fmt.Errorf("--redis-max-staleness must not be negative, got %v", r.maxStale)
	case r.replicas < 0:
		return fmt.Errorf("--redis-replicas must not be negative, got %d", r.replicas)
	case r.replicas > 0 && r.cluster != "":
		return errors.New("--redis-replicas needs one primary (--redis or --redis-sentinel): a Redis Cluster's WAIT would cover one shard's connection only")
	case set["redis-replica-timeout"] && r.replicas == 0:
		return errors.New("--redis-replica-timeout needs --redis-replicas")
	case r.replicaTimeout <= 0:
		return fmt.Errorf("--redis-replica-timeout must be positive, got %v", r.replicaTimeout)
	}
	return nil
}

// open opens the store of registry name.
func (r *redisFlags) open(ctx context.Context, name string) (*redisstore.Store, error) {
	opts := []redisstore.Option{redisstore.WithMaxStaleness(r.maxStale)}
	if r.replicas > 0 {
		opts = append(opts, redisstore.WithReplicas(r.replicas, r.replicaTimeout))
	}
	switch {
	case r.sentinel != "":
		return redisstore.OpenFailover(ctx, r.sentinel, name, opts...)
	case r.cluster != "":
		return redisstore.OpenCluster(ctx, r.cluster, name, opts...)
	}
	return redisstore.Open(ctx, r.single, name, opts...)
}

// durabilityCheck is how often serve reads Redis's persistence settings
// again, so that a CONFIG SET, a restarted Redis or a failover to a server
// with other settings shows in the log and the durable gauge.
const durabilityCheck = 5 * time.Second

// warnDurability logs, at WARN, each Redis setting that makes a restart of
// Redis lose acknowledged changes, or that the settings could not be read,
// at start and whenever a later check (every durabilityCheck) finds them
// changed; at INFO, that they keep acknowledged changes again. With
// --redis-replicas, the replicas keep them and nothing is logged.
func (r *redisFlags) warnDurability(ctx context.Context, st *redisstore.Store, log *slog.Logger) {
	weakBefore := false
	st.WatchDurability(ctx, durabilityCheck, func(weak []redisstore.Weakness, err error) {
		if err != nil {
			log.Warn("registry: could not read Redis's persistence settings; acknowledged changes may be lost when Redis restarts (set appendonly yes and appendfsync always, or --redis-replicas)", "err", err)
		}
		for _, w := range weak {
			log.Warn("registry: "+w.String()+"; set "+w.Setting+" "+w.Want+", or --redis-replicas", "setting", w.Setting, "value", w.Value, "want", w.Want)
		}
		if err == nil && len(weak) == 0 && weakBefore {
			log.Info("registry: Redis's persistence settings keep acknowledged changes across a restart again")
		}
		weakBefore = err != nil || len(weak) > 0
	})
}
