package embeddedstore

// The attempts of the embedded store's calls, with the rules of package
// service's attempts.go, so that
// one set of rules decides when a call may be sent again whatever the
// store.
//
// A claim lives in memory: it is the claim of a service of this process,
// and a restarted store has none. A hand-over is part of the call's record
// and as durable as its admission: a new call's admission and its
// hand-over are one journal record, one sync before the call is sent. So
// after a crash, a clean stop or a stop that could not record a result the
// provider gave, a call handed over without a result has no claim, its
// outcome is unknown (AttemptLost) and it is never sent again. A crash
// between that record and the sending leaves a call that was never sent
// with an unknown outcome too: the safe side, never a call sent twice.

import (
	"context"
	"fmt"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// claimed returns the fence of c's claim if it is current at now, 0
// otherwise.
func (c *storedCall) claimed(now time.Time) uint64 {
	if c.claim != 0 && now.Before(c.until) {
		return c.claim
	}
	return 0
}

// newClaim makes owner the claimant of c for ttl under a new fence, which
// it returns. s.mu must be held.
func (s *Store) newClaim(c *storedCall, owner string, ttl time.Duration) uint64 {
	s.fence++
	c.claim, c.owner, c.until = s.fence, owner, time.Now().Add(ttl)
	return s.fence
}

// Claim implements store.Store.
func (s *Store) Claim(_ context.Context, callID, owner string, ttl time.Duration) (uint64, store.AttemptState, error) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c == nil {
		return 0, store.AttemptFree, nil
	}
	now := time.Now()
	cur := c.claimed(now)
	switch {
	case c.rec.Result != nil:
		return 0, store.AttemptDone, nil
	case cur != 0 && (c.owner != owner || c.sent != 0):
		return 0, store.AttemptClaimed, nil
	case c.sent != 0:
		return 0, store.AttemptLost, nil
	}
	return s.newClaim(c, owner, ttl), store.AttemptClaimed, nil
}

// Renew implements store.Store.
func (s *Store) Renew(_ context.Context, callID string, fence uint64, ttl time.Duration) (bool, error) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	now := time.Now()
	if c == nil || c.claimed(now) != fence {
		return false, nil
	}
	c.until = now.Add(ttl)
	return true, nil
}

// HandOver implements store.Store: the hand-over is durable before it
// returns.
func (s *Store) HandOver(_ context.Context, callID string, fence uint64) error {
	if s.readOnly != nil {
		return s.readOnly
	}
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c == nil || c.claimed(time.Now()) != fence || c.rec.Result != nil || c.sent != 0 {
		return fmt.Errorf("%w: claim %d of call %q is not current, or the call was handed over or has a result", store.ErrClaimLost, fence, callID)
	}
	return s.write(c, c.rec.Clone(), fence)
}

// CompleteHandedOver implements store.Store.
func (s *Store) CompleteHandedOver(_ context.Context, callID string, fence uint64, res *registry.CallResult) (*registry.CallResult, error) {
	if s.readOnly != nil {
		return nil, s.readOnly
	}
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	switch {
	case c == nil:
		return nil, fmt.Errorf("%w: call %q", store.ErrNotAdmitted, callID)
	case c.rec.Result == nil && c.sent != fence:
		return nil, fmt.Errorf("%w: call %q was not handed over under claim %d", store.ErrClaimLost, callID, fence)
	}
	rec, err := s.completeLocked(c, res)
	if err != nil {
		return nil, err
	}
	return rec.Result, nil
}

// Return implements store.Store. Ending a hand-over is durable before it
// returns; one that fails leaves the call handed over, its outcome unknown.
func (s *Store) Return(_ context.Context, callID string, fence uint64) error {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c == nil {
		return nil
	}
	if c.sent == fence {
		if s.readOnly != nil {
			return s.readOnly
		}
		if err := s.write(c, c.rec.Clone(), 0); err != nil {
			return err
		}
	}
	if c.claim == fence {
		c.claim = 0
	}
	return nil
}

// Release implements store.Store.
func (s *Store) Release(_ context.Context, callID string, fence uint64) error {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c != nil && c.claim == fence {
		c.claim = 0
	}
	return nil
}

// Attempt implements store.Store.
func (s *Store) Attempt(_ context.Context, callID string) (store.AttemptState, error) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	switch {
	case c == nil:
		return store.AttemptFree, nil
	case c.rec.Result != nil:
		return store.AttemptDone, nil
	case c.claimed(time.Now()) != 0:
		return store.AttemptClaimed, nil
	case c.sent != 0:
		return store.AttemptLost, nil
	}
	return store.AttemptFree, nil
}

// AdmitAndHandOver implements store.Store: a new admission is written
// with its hand-over, one journal record.
func (s *Store) AdmitAndHandOver(_ context.Context, rec *store.CallRecord, owner string, ttl time.Duration) (*store.CallRecord, bool, uint64, error) {
	if s.readOnly != nil {
		return nil, false, 0, s.readOnly
	}
	c := s.lockCall(rec.CallID)
	if c != nil {
		out := c.rec.Clone()
		s.mu.Unlock()
		return out, false, 0, nil
	}
	if cur := s.regs[rec.Tool.Toolset()]; cur.Token != rec.Token {
		s.mu.Unlock()
		return nil, false, 0, fmt.Errorf("%w: toolset %q has token %q, not %q", store.ErrStale, rec.Tool.Toolset(), cur.Token, rec.Token)
	}
	stored := rec.Clone()
	stored.Result = nil
	c = &storedCall{rec: *stored.Clone(), busy: make(chan struct{})}
	s.calls[rec.CallID] = c
	fence := s.newClaim(c, owner, ttl)
	s.mu.Unlock()
	var err error
	if s.disk != nil {
		err = s.disk.putCall(stored, fence)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	release(c)
	if err != nil {
		delete(s.calls, rec.CallID)
		return nil, false, 0, err
	}
	c.sent = fence
	return stored, true, fence, nil
}

// ReturnUnsent implements store.Store.
func (s *Store) ReturnUnsent(ctx context.Context, callID, owner string) error {
	c := s.lockCall(callID)
	if c == nil || c.rec.Result != nil || c.claimed(time.Now()) == 0 || c.owner != owner {
		s.mu.Unlock()
		return nil
	}
	fence := c.claim
	s.mu.Unlock()
	return s.Return(ctx, callID, fence)
}
