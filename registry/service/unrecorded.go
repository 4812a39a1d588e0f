package service

// Results that ran but could not be recorded. A provider ran the call and
// answered, and the store then refused the result (its disk filled, or it
// could not be reached). The call must not run again, and its caller must
// not be told it failed as if it had not run. So:
//
//   - the caller is answered registry.ErrCallOutcomeUnknown (HTTP 409),
//     saying the call ran, why its result is not recorded, and that the
//     registry does not send it again;
//   - the service holds the result in memory and never forwards the call
//     while it holds it; a retry of the same call (same ID, token and
//     payload) records the held result first: once the store takes it (the
//     disk has space again), that retry and every later one get the
//     recorded result; until then each retry gets ErrCallOutcomeUnknown
//     again;
//   - a held result is not forgotten by the call retention, and Close
//     tries once more to record each one.
//
// A held result lives as long as the service; the call's hand-over
// (attempts.go), recorded before the call was sent, outlives it. The store
// keeps the hand-over outstanding while no result is recorded, so that the call
// is never sent again whatever happens to the service: after a restart, or
// on another node, every retry gets ErrCallOutcomeUnknown.

import (
	"context"
	"fmt"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// holdResult keeps the result of a call that ran but could not be
// recorded, and returns what its caller is told; err is the store's
// failure.
func (s *Service) holdResult(res *registry.CallResult, err error) *registry.Error {
	s.callMu.Lock()
	if s.unrecorded == nil {
		s.unrecorded = make(map[string]*registry.CallResult)
	}
	s.unrecorded[res.CallID] = store.CloneResult(res)
	s.callMu.Unlock()
	return unrecordedError(res.CallID, s.storeError(fmt.Sprintf("record result of call %q", res.CallID), err))
}

// unrecordedError is the ErrCallOutcomeUnknown of a call whose result is
// held, cause the registry error of the store's failure.
func unrecordedError(callID string, cause error) *registry.Error {
	why := "its store failed"
	if e, ok := cause.(*registry.Error); ok && e.Code == registry.CodeStorageFull {
		why = "its store has no space left"
	}
	return &registry.Error{
		Code:  registry.CodeCallOutcomeUnknown,
		Cause: cause,
		Message: fmt.Sprintf("call %q ran, but the registry could not record its result: %s; the registry does not send it again, "+
			"and a retry of the call returns its result once the registry has recorded it", callID, why),
	}
}

// heldResult returns the held result of a call, nil when none is held.
func (s *Service) heldResult(callID string) *registry.CallResult {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	return s.unrecorded[callID]
}

// recordHeld records a held result, and returns the recorded one; while
// the store refuses it, the call's outcome stays unknown to its caller.
func (s *Service) recordHeld(ctx context.Context, res *registry.CallResult) (*registry.CallResult, error) {
	rec, err := s.store.Complete(context.WithoutCancel(ctx), res.CallID, res)
	if err != nil {
		return nil, unrecordedError(res.CallID, s.storeError(fmt.Sprintf("record result of call %q", res.CallID), err))
	}
	s.callMu.Lock()
	delete(s.unrecorded, res.CallID)
	s.callMu.Unlock()
	return rec.Result, nil
}

// recordAllHeld tries once more to record every held result.
func (s *Service) recordAllHeld() {
	s.callMu.Lock()
	held := make([]*registry.CallResult, 0, len(s.unrecorded))
	for _, res := range s.unrecorded {
		held = append(held, res)
	}
	s.callMu.Unlock()
	for _, res := range held {
		_, _ = s.recordHeld(context.Background(), res)
	}
}
