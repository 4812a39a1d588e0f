package service

// Stores shared by several services, the nodes of one registry
// (StoreTraits.Shared). A shared store tells the services three things
// that matter only when others change it too:
//
//   - the current generation, cheaply (Store.Generation): a service reads it
//     before it answers a read or decides a change, and reads the
//     registrations again when another node changed them, so that no node
//     serves a catalog older than the store's staleness bound (zero, or
//     the bounded generation watch of the Redis store); a refusal is
//     decided on a fresh read whatever the bound (fresh.go);
//   - its epoch (Store.Epoch): how many times it found that it had lost changes it
//     acknowledged (a Redis restarted without them, a failover to a
//     replica that lacked them). Generations then go back, or are made
//     again with other content, so a service whose registrations are of an
//     earlier epoch drops them and reads the store again, whatever the
//     generations, and says so (PathReadyz, the log);
//   - who forwards a pending call now, and whether it was sent to its
//     provider (attempts.go).

import (
	"context"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// current installs the store's registrations when another service changed
// them since this one read them. A store that is not shared is read only
// by this service: what it installed is current.
func (s *Service) current(ctx context.Context) error {
	st := s.store
	if !st.Traits().Shared {
		return nil
	}
	gen, err := st.Generation(ctx)
	if err != nil {
		return s.storeError("read the generation", err)
	}
	epoch := st.Epoch()
	s.mu.RLock()
	fresh := s.loaded && epoch == s.storeEpoch && gen <= s.generation
	s.mu.RUnlock()
	if fresh {
		return nil
	}
	return s.refresh(ctx, nil)
}

// retrying returns the error that ends a loop retrying what, once ctx is
// done: a request abandoned by its client stops, whatever the store says.
func retrying(ctx context.Context, what string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// catalogInstance names the catalogs this service answers in entity tags
// and page cursors: its instance, and how many times it dropped its
// registrations for a store that lost changes, after which generations
// may be made again with other content.
func (s *Service) catalogInstance() string {
	if n := s.resets.Load(); n > 0 {
		return fmt.Sprintf("%s-%d", s.instance, n)
	}
	return s.instance
}

// unavailableError is the registry error of a store that cannot be reached:
// it names what failed, never the store's address or its client's error.
func unavailableError(what string) *registry.Error {
	e := registry.Errorf(registry.CodeOverloaded, "%s: the registry's store is unreachable; retry", what)
	e.RetryAfter = DefaultRetryAfter
	return e
}
