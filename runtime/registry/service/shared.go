package service

// Stores shared by several services, the nodes of one registry. A shared
// store tells the services two more things than a Store does, and the
// Service asks for them when its store has them:
//
//   - the current generation, cheaply (SharedStore): a service reads it
//     before it answers a read or decides a change, and reads the
//     registrations again when another node changed them, so that no node
//     serves a catalog older than the store's staleness bound (zero, or
//     the bounded generation watch of the Redis store); a refusal is
//     decided on a fresh read whatever the bound (fresh.go);
//   - who forwards a pending call now, and whether it was sent to its
//     provider (AttemptStore, attempts.go).

import (
	"context"
	"errors"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// ErrUnavailable: the store could not be reached. Unlike other store
// errors, the change may have been made before the store's answer was lost;
// publishes and calls are idempotent, so the caller retries them.
var ErrUnavailable = errors.New("registry store: unreachable")

// SharedStore is a Store that other services change too.
type SharedStore interface {
	Store
	// Generation returns the current generation, or one that every change
	// acknowledged more than the store's staleness bound ago has reached.
	Generation(ctx context.Context) (uint64, error)
}

// current installs the store's registrations when another service changed
// them since this one read them. A store that is not shared is read only
// by this service: what it installed is current.
func (s *Service) current(ctx context.Context) error {
	st, ok := s.store.(SharedStore)
	if !ok {
		return nil
	}
	gen, err := st.Generation(ctx)
	if err != nil {
		return s.storeError("read the generation", err)
	}
	s.mu.RLock()
	fresh := s.loaded && gen <= s.generation
	s.mu.RUnlock()
	if fresh {
		return nil
	}
	return s.refresh(ctx, nil)
}

// unavailableError is the registry error of a store that cannot be reached:
// it names what failed, never the store's address or its client's error.
func unavailableError(what string) *registry.Error {
	e := registry.Errorf(registry.CodeOverloaded, "%s: the registry's store is unreachable; retry", what)
	e.RetryAfter = DefaultRetryAfter
	return e
}
