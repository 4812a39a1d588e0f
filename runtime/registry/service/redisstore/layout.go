package redisstore

// The layout of a registry's calls in Redis. A call is one hash, call:ID
// (scripts.go), listed in the sorted set callsKey. The layout before it
// kept a call in up to four string keys, call:ID, result:ID, claim:ID and
// sent:ID, listed in the sorted set "calls"; a store refuses to serve the
// calls of a registry that still has that set (ErrOldLayout), rather than
// miss or misread them. Registrations are kept as before.

import (
	"context"
	"errors"
	"fmt"
)

// callsKey is the sorted set of a registry's call IDs by last event, for
// listing and forgetting.
const callsKey = "callindex"

// oldCallsKey is the sorted set of the calls kept in the earlier layout.
const oldCallsKey = "calls"

// ErrOldLayout is the error of every call operation of a store whose
// registry still holds calls in the layout of an earlier version of this
// store; see docs/registry.md, "Upgrading the Redis store".
var ErrOldLayout = errors.New("registry store redis: the registry holds calls in an earlier layout")

func (s *Store) callKey(callID string) string { return s.prefix + "call:" + callID }

// checkLayout returns ErrOldLayout while the registry holds calls in the
// earlier layout. Once Redis says it holds none, the store does not ask
// again: a node of this version never writes that layout.
func (s *Store) checkLayout(ctx context.Context) error {
	if s.layoutChecked.Load() {
		return nil
	}
	n, err := s.rdb.Exists(ctx, s.key(oldCallsKey)).Result()
	if err != nil {
		return wrap("check the layout of the calls", err)
	}
	if n > 0 {
		return fmt.Errorf("%w: the sorted set %s lists calls kept in keys %s (call:ID, result:ID, claim:ID, sent:ID): "+
			"let the nodes of the earlier version finish them and their retention forget them, or delete %s and those keys, "+
			"before the nodes of this version serve the registry", ErrOldLayout, s.key(oldCallsKey), s.prefix+"{call,result,claim,sent}:*", s.key(oldCallsKey))
	}
	s.layoutChecked.Store(true)
	return nil
}
