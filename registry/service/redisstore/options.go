package redisstore

import (
	"fmt"
	"time"
)

// DefaultMaxStaleness is how old a node's view of the generation may be
// when it answers a read from its cache without asking Redis; see
// WithMaxStaleness.
const DefaultMaxStaleness = 250 * time.Millisecond

// Option configures a Store.
type Option func(*config)

type config struct {
	maxStale       time.Duration
	replicas       int
	replicaTimeout time.Duration
}

// WithMaxStaleness bounds how stale a read may be. A node answers a read
// from its cache, with no Redis round trip, while it knows every change
// acknowledged more than d before the read began (the generation watch,
// watch.go); otherwise it reads the generation from Redis first. Zero makes
// every read ask Redis: a read then reflects every change acknowledged
// before it began, on any node. A refusal (a toolset not registered, a
// token not current) is always decided on a fresh read, whatever d is.
// The default is DefaultMaxStaleness.
func WithMaxStaleness(d time.Duration) Option { return func(c *config) { c.maxStale = d } }

// WithReplicas makes every change wait, in the same round trip, until
// every replica connected to the primary, and at least n, have it (Redis
// WAIT, up to timeout), and every state the store returns be replicated
// so first (replicas.go). A change that they did not confirm in time
// fails with service.ErrUnavailable: it may have been made, and the caller
// retries it. With a Sentinel-managed primary, a failover then promotes a
// replica that holds everything acknowledged, whichever it promotes, and
// writes go on once the new primary has n replicas connected: with n + 1
// replicas, while one Redis is down. It needs a client of one primary
// (redis.Client or a failover client), not a cluster client.
func WithReplicas(n int, timeout time.Duration) Option {
	return func(c *config) { c.replicas, c.replicaTimeout = n, timeout }
}

func buildConfig(opts []Option) (config, error) {
	c := config{maxStale: DefaultMaxStaleness}
	for _, o := range opts {
		o(&c)
	}
	switch {
	case c.maxStale < 0:
		return c, fmt.Errorf("registry store redis: max staleness %v is negative", c.maxStale)
	case c.replicas < 0:
		return c, fmt.Errorf("registry store redis: %d replicas is negative", c.replicas)
	case c.replicas > 0 && c.replicaTimeout <= 0:
		return c, fmt.Errorf("registry store redis: replica timeout %v must be positive", c.replicaTimeout)
	}
	return c, nil
}
