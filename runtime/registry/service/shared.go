package service

// Stores shared by several services, the nodes of one registry. A shared
// store tells the services two more things than a Store does, and the
// Service asks for them when its store has them:
//
//   - the current generation, cheaply (SharedStore): a service reads it
//     before it answers a read or decides a change, and reads the
//     registrations again when another node changed them, so that no node
//     serves a catalog older than a change another node acknowledged;
//   - who forwards a pending call now (AttemptStore): a call is forwarded
//     by one node at a time, under a claim the forwarding node renews; the
//     same call arriving at another node waits for the result, and a claim
//     that is not renewed (its node died) lapses so that a retry forwards
//     the call again.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// ErrUnavailable: the store could not be reached. Unlike other store
// errors, the change may have been made before the store's answer was lost;
// publishes and calls are idempotent, so the caller retries them.
var ErrUnavailable = errors.New("registry store: unreachable")

// SharedStore is a Store that other services change too.
type SharedStore interface {
	Store
	// Generation returns the current generation.
	Generation(ctx context.Context) (uint64, error)
}

// AttemptStore is a Store that records which service forwards a call.
type AttemptStore interface {
	Store
	// Claim makes owner the forwarder of callID for ttl unless another
	// owner's claim is current, and reports whether owner holds it.
	Claim(ctx context.Context, callID, owner string, ttl time.Duration) (bool, error)
	// Renew extends owner's claim of callID by ttl, and reports whether
	// owner still held it.
	Renew(ctx context.Context, callID, owner string, ttl time.Duration) (bool, error)
	// Release ends owner's claim of callID, if owner holds it.
	Release(ctx context.Context, callID, owner string) error
	// Claimed reports whether some owner's claim of callID is current.
	Claimed(ctx context.Context, callID string) (bool, error)
}

// Claims of AttemptStore: a forwarding node renews its claim every
// claimRenew; a claim not renewed lapses after claimTTL. A call arriving at
// another node meanwhile checks for the result every claimPoll.
const (
	claimTTL   = 3 * time.Second
	claimRenew = time.Second
	claimPoll  = 20 * time.Millisecond
)

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

// claim makes this service the forwarder of a pending call, whose attempt
// a is registered. It reports true when the call is this service's to
// forward; otherwise a now waits for another service's attempt, and ends
// when that service has recorded a result or its claim lapsed.
func (s *Service) claim(ctx context.Context, callID string, a *attempt) (bool, error) {
	st, ok := s.store.(AttemptStore)
	if !ok {
		return true, nil
	}
	mine, err := st.Claim(ctx, callID, s.instance, claimTTL)
	if err != nil {
		return false, s.storeError(fmt.Sprintf("claim call %q", callID), err)
	}
	if mine {
		return true, nil
	}
	s.wg.Add(1)
	go s.await(st, callID, a)
	return false, nil
}

// await ends a when another service's attempt at callID has ended: the call
// has a result, or no claim. The caller then reads the record again.
func (s *Service) await(st AttemptStore, callID string, a *attempt) {
	defer s.wg.Done()
	ctx := context.Background()
	var err error
	for {
		time.Sleep(claimPoll)
		var rec *CallRecord
		if rec, err = st.Call(ctx, callID); err != nil || rec == nil || rec.Result != nil {
			break
		}
		var held bool
		if held, err = st.Claimed(ctx, callID); err != nil || !held {
			break
		}
	}
	s.callMu.Lock()
	defer s.callMu.Unlock()
	if err != nil {
		a.err = s.storeError(fmt.Sprintf("read call %q", callID), err)
	}
	delete(s.running, callID)
	close(a.done)
}

// holdClaim renews this service's claim of callID until stop closes, then
// releases it.
func (s *Service) holdClaim(callID string, stop <-chan struct{}) {
	st, ok := s.store.(AttemptStore)
	if !ok {
		return
	}
	t := time.NewTicker(claimRenew)
	defer t.Stop()
	for {
		select {
		case <-stop:
			// A release that fails leaves the claim to lapse.
			_ = st.Release(context.Background(), callID, s.instance)
			return
		case <-t.C:
			// A renewal that fails lets the claim lapse: another node may
			// then forward the call too, and the first result recorded is
			// the one every retry gets.
			_, _ = st.Renew(context.Background(), callID, s.instance, claimTTL)
		}
	}
}

// unavailableError is the registry error of a store that cannot be reached:
// it names what failed, never the store's address or its client's error.
func unavailableError(what string) *registry.Error {
	e := registry.Errorf(registry.CodeOverloaded, "%s: the registry's store is unreachable; retry", what)
	e.RetryAfter = DefaultRetryAfter
	return e
}

// unclaim releases a claim this service will not forward under.
func (s *Service) unclaim(callID string) {
	if st, ok := s.store.(AttemptStore); ok {
		// A release that fails leaves the claim to lapse.
		_ = st.Release(context.Background(), callID, s.instance)
	}
}
