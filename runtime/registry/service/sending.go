package service

// The normal path of a new call, which the store admits, claims and hands
// over in one step (Store.AdmitAndHandOver): one store round trip before the call is
// sent to its provider, and one to record its result. Everything it
// decides from the service's installed registrations is decided again by
// the store (the admission is fenced by the token), so a registration
// this service has not read yet costs only a detour: whenever the new
// call is not plainly admissible here and now (its token is not the one
// installed, its payload does not decode, no forwarding slot is free, the
// store has a record of the call already), the call takes the general
// path of CallResolvedTool, which decides and words every refusal.

import (
	"context"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// sendNew runs a new call on the normal path; done false: the call takes
// the general path.
func (s *Service) sendNew(ctx context.Context, req *registry.CallRequest, digest string) (res *registry.CallResult, done bool, err error) {
	st := s.store
	if s.opts.handOverHook != nil {
		// The tests' hook holds a hand-over made on its own.
		return nil, false, nil
	}
	if err := s.current(ctx); err != nil {
		return nil, true, err
	}
	e := s.registration(req.Tool.Toolset())
	if e == nil || e.reg.Token != req.Token {
		return nil, false, nil
	}
	spec := e.specs[req.Tool]
	if spec == nil || s.live(ctx, e) != nil {
		return nil, false, nil
	}
	if _, err := s.opts.rules.check(req.Tool.Toolset(), e.reg.Endpoint); err != nil {
		return nil, false, nil
	}
	if _, err := spec.Payload.Decode(req.Payload); err != nil {
		return nil, false, nil
	}
	if err := s.sweep(ctx); err != nil {
		return nil, true, s.storeError("forget expired calls", err)
	}
	s.callMu.Lock()
	if s.running[req.CallID] != nil {
		s.callMu.Unlock()
		return nil, false, nil
	}
	a := &attempt{done: make(chan struct{})}
	s.running[req.CallID] = a
	s.callMu.Unlock()
	select {
	case s.slots <- struct{}{}:
	default:
		s.end(req.CallID, a, nil)
		return nil, false, nil
	}
	rec := &CallRecord{
		CallID: req.CallID, Tool: req.Tool, Token: req.Token, PayloadDigest: digest,
		Revision: e.reg.Revision, Endpoint: e.reg.Endpoint, AdmittedAt: s.opts.now().UTC().Round(0),
	}
	// Those waiting for a share what the store answers: the caller going
	// away must not fail them.
	_, isNew, fence, err := st.AdmitAndHandOver(context.WithoutCancel(ctx), rec, s.instance, claimTTL)
	if err != nil || !isNew || fence == 0 {
		<-s.slots
		if err != nil && !errors.Is(err, ErrStale) {
			// The store may have made the admission and the hand-over with
			// its answer lost; the call was not sent, so they are returned
			// (while this attempt is registered, a claim of this service's
			// is this attempt's). A return that fails leaves the call's
			// outcome unknown, never sent twice.
			_ = st.ReturnUnsent(context.WithoutCancel(ctx), req.CallID, s.instance)
			err = s.storeError(fmt.Sprintf("admit call %q", req.CallID), err)
			s.end(req.CallID, a, err)
			return nil, true, err
		}
		s.end(req.CallID, a, nil) // the general path reads the record
		return nil, false, nil
	}
	s.wg.Add(1)
	go s.forward(rec.Endpoint, a, spec, &registry.CallRequest{CallID: req.CallID, Tool: req.Tool, Token: req.Token, Payload: append([]byte(nil), req.Payload...)}, fence, true)
	select {
	case <-a.done:
	case <-ctx.Done():
		return nil, true, fmt.Errorf("call %q: %w", req.CallID, ctx.Err())
	}
	if a.err != nil || a.res != nil {
		return a.res, true, a.err
	}
	return nil, false, nil
}
