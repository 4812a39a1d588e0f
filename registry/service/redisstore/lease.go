package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// RenewLease implements service.Store: the lease is set only while
// token is the toolset's current token, in one script.
func (s *Store) RenewLease(ctx context.Context, toolset string, token registry.Token, until time.Time) error {
	keys := []string{s.key("tokens"), s.key("leases")}
	n, err := s.eval(ctx, renewLeaseScript, keys, toolset, string(token), until.UTC().Format(time.RFC3339Nano)).Int()
	if err != nil {
		return wrap(fmt.Sprintf("renew the lease of toolset %q", toolset), err)
	}
	if n != 1 {
		return fmt.Errorf("%w: toolset %q has not token %q", store.ErrStale, toolset, token)
	}
	return nil
}

// Lease implements service.Store.
func (s *Store) Lease(ctx context.Context, toolset string) (time.Time, error) {
	v, err := s.rdb.HGet(ctx, s.key("leases"), toolset).Result()
	if errors.Is(err, redis.Nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, wrap(fmt.Sprintf("read the lease of toolset %q", toolset), err)
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("registry store redis: lease of toolset %q: %w", toolset, err)
	}
	return t, nil
}
