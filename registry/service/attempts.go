package service

// Attempts of calls. Services of a Store (the embedded store, which one
// process's services share, and the Redis store, which the nodes of a
// cluster share) send each call to its provider at most once at a time,
// and never again once a sending may have run it without its outcome being
// known, whatever happens to the service that sent it:
//
//   - A node forwards a pending call under a claim that it renews while it
//     forwards. Each claim carries a fence, a number the store hands out in
//     increasing order, so that an old claim is never mistaken for a new
//     one. A claim not renewed (its node died, or was starved of CPU)
//     lapses, and another node may then claim the call.
//   - The moment of sending is a hand-over, recorded in the store in one
//     atomic step that checks the claim's fence: a node whose claim lapsed
//     cannot hand the call over, and a call handed over cannot be claimed
//     again until the hand-over ends.
//   - A hand-over ends with the provider's result, recorded only by the
//     node that handed the call over (fenced by the hand-over, which no
//     other node can hold meanwhile), or with a failure the provider
//     answered, after which a retry may send the call again: the provider
//     is done with the first sending and its caller was told why it failed.
//     A sending that got no answer (a timeout, a connection cut mid-call)
//     never ends: the provider may be running the call still.
//   - A call handed over whose claim lapsed before a result was recorded
//     has an unknown outcome: it is never sent again, and those asking for
//     it get registry.ErrCallOutcomeUnknown, unless the node that sent it
//     is alive and records the result later, which every later retry gets.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// ErrNoAnswer marks, in the chain of a Forwarder's error, a call that may
// have reached its provider but whose answer did not come back. The call
// is then never sent again: the provider may have run it, or be running it
// still.
var ErrNoAnswer = errors.New("the provider's answer did not arrive")

// Claims: a claim not renewed lapses after claimTTL. A forwarding node
// renews its claims every claimRenew, a third of claimTTL (claims.go): a
// new claim's first renewal comes within 1.5 claimRenew, each later one
// claimRenew after the last, so a claim outlives one failed or late
// renewal. A call arriving at another node meanwhile checks for the result
// every claimPoll.
const (
	claimTTL   = 3 * time.Second
	claimRenew = claimTTL / 3
	claimPoll  = 20 * time.Millisecond
)

// claim makes this service the forwarder of a pending call, whose attempt
// a is registered. It returns the claim's fence and true when the call is
// this service's to forward; otherwise a waits for another service's
// attempt, while wait (the request's context) lasts, or has ended so that
// the caller reads the record again. An error is not yet a's.
func (s *Service) claim(ctx, wait context.Context, callID string, a *attempt) (uint64, bool, error) {
	fence, state, err := s.store.Claim(ctx, callID, s.instance, claimTTL)
	switch {
	case err != nil:
		return 0, false, s.storeError(fmt.Sprintf("claim call %q", callID), err)
	case fence != 0:
		return fence, true, nil
	case state == AttemptClaimed:
		s.wg.Add(1)
		go s.await(wait, callID, a)
		return 0, false, nil
	case state == AttemptLost:
		return 0, false, lostOutcome(callID)
	}
	s.end(callID, a, nil) // a result, or no record: read it again
	return 0, false, nil
}

// await ends a when another service's attempt at callID has ended: the call
// has a result, no claim, or a hand-over whose claim lapsed (a's error).
// The caller then reads the record again. It polls while ctx, the context
// of the request that started it, lasts: once that request is gone, a ends
// with no error, and those still waiting for it read the record again (and
// wait under their own requests' contexts).
func (s *Service) await(ctx context.Context, callID string, a *attempt) {
	defer s.wg.Done()
	state, err := AttemptClaimed, error(nil)
	poll := time.NewTimer(claimPoll)
	defer poll.Stop()
	for state == AttemptClaimed && err == nil {
		select {
		case <-ctx.Done():
		case <-poll.C:
			poll.Reset(claimPoll)
			state, err = s.store.Attempt(ctx, callID)
		}
		if ctx.Err() != nil {
			state, err = AttemptFree, nil
		}
	}
	s.callMu.Lock()
	defer s.callMu.Unlock()
	switch {
	case err != nil:
		a.err = s.storeError(fmt.Sprintf("read call %q", callID), err)
	case state == AttemptLost:
		a.err = lostOutcome(callID)
	}
	delete(s.running, callID)
	close(a.done)
}

// release ends a claim this service will not hand the call over under. A
// release that fails leaves the claim to lapse.
func (s *Service) release(callID string, fence uint64) {
	_ = s.store.Release(context.Background(), callID, fence)
}

// send hands an admitted call to its provider under the claim fence (a
// hand-over recorded in one step that checks the fence), and records its
// result, which it returns. It returns no result and no error when the
// claim was lost before the hand-over, so that the caller reads the record
// again. It frees the forwarding slot the call holds once the provider is
// done with it. handedOver: the hand-over under fence is recorded already
// (AdmitAndHandOver).
func (s *Service) send(endpoint string, req *registry.CallRequest, fence uint64, handedOver bool, outcome func(*registry.ProviderResult) (*registry.CallResult, error)) (*registry.CallResult, error) {
	ctx := context.Background()
	st := s.store
	endpoint, err := s.opts.rules.check(req.Tool.Toolset(), endpoint)
	if err != nil {
		// Registered before the rules changed: refused, and not sent.
		s.claimEnding(req.CallID, fence)
		<-s.slots
		if handedOver {
			_ = st.Return(ctx, req.CallID, fence)
		} else {
			s.release(req.CallID, fence)
		}
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "provider of %q: its endpoint breaks the registry's endpoint rules", req.Tool)
	}
	if !handedOver {
		err := s.store.HandOver(ctx, req.CallID, fence)
		if err != nil {
			s.claimEnding(req.CallID, fence)
			<-s.slots
			if errors.Is(err, ErrClaimLost) {
				return nil, nil // another node's attempt, or a result: read again
			}
			// The hand-over may have been made, its answer lost: the call
			// was not sent, so it is returned (a return that fails leaves
			// the call's outcome unknown, never sent twice).
			_ = st.Return(ctx, req.CallID, fence)
			return nil, s.storeError(fmt.Sprintf("hand over call %q", req.CallID), err)
		}
	}
	fctx, cancel := context.WithTimeout(ctx, s.opts.forwardTimeout)
	pr, err := s.opts.forwarder.Forward(fctx, endpoint, req)
	unanswered := err != nil && (errors.Is(err, ErrNoAnswer) || fctx.Err() != nil)
	cancel()
	s.claimEnding(req.CallID, fence)
	<-s.slots // the slot bounds forwarding; recording needs none
	var res *registry.CallResult
	if err == nil {
		res, err = outcome(pr)
	}
	switch {
	case err == nil:
		recorded, err := st.CompleteHandedOver(ctx, req.CallID, fence, res)
		switch {
		case errors.Is(err, ErrClaimLost):
			// The hand-over was ended by a forget of the call.
			s.release(req.CallID, fence)
			return nil, registry.Errorf(registry.CodeCallOutcomeUnknown, "call %q ran, but its record was forgotten before its result could be recorded", req.CallID)
		case err != nil:
			// The hand-over stays outstanding: the call is never sent
			// again, whatever happens to this service, which holds the
			// result for a retry to record (unrecorded.go).
			s.release(req.CallID, fence)
			return nil, s.holdResult(res, err)
		}
		return recorded, nil
	case unanswered:
		s.release(req.CallID, fence) // the hand-over stays: never sent again
		e := asRegistryError(req, err)
		return nil, &registry.Error{Code: registry.CodeCallOutcomeUnknown, Cause: e.Cause,
			Message: e.Message + "; it may have run, and the registry does not send it again"}
	}
	// The provider answered with a failure: it is done with this sending.
	if rerr := st.Return(ctx, req.CallID, fence); rerr != nil {
		return nil, s.storeError(fmt.Sprintf("end the attempt of call %q", req.CallID), rerr)
	}
	return nil, err
}

// lostOutcome is the error of a call handed over under a claim that ended
// before its result was recorded.
func lostOutcome(callID string) *registry.Error {
	return registry.Errorf(registry.CodeCallOutcomeUnknown, "call %q was sent to its provider, and the registry node that sent it recorded no result before its claim of the call ended (the provider did not answer, or the node stopped, lost the store, or renewed its claim too late); it may have run, and the registry does not send it again", callID)
}
