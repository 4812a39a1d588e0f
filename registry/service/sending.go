package service

// The normal path of a new call, which the store admits, claims and hands
// over in one step (Store.AdmitAndHandOver): one store round trip before
// the call is sent to its provider, and one to record its result. The
// call's admission is decided first, by admission (calls.go), without
// reading the call's record: the store's admission finds a record if there
// is one, and is fenced by the token, so a registration this service has
// not read yet costs only a detour. Whenever the new call cannot be sent
// here and now (its endpoint breaks the endpoint rules, no forwarding slot
// is free, the store has a record of the call already or a newer
// registration), the call takes the general path of CallResolvedTool,
// which reads the record first.

import (
	"context"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// sendNew admits, claims and hands over a new call admissible under e, and
// returns the attempt forwarding it; no attempt and no error: the call
// takes the general path.
func (s *Service) sendNew(ctx context.Context, req *registry.CallRequest, digest string, e *entry, spec *tools.ToolSpec) (*attempt, error) {
	if _, err := s.opts.rules.check(req.Tool.Toolset(), e.reg.Endpoint); err != nil {
		return nil, nil
	}
	s.callMu.Lock()
	if s.running[req.CallID] != nil {
		s.callMu.Unlock()
		return nil, nil
	}
	a := &attempt{done: make(chan struct{})}
	s.running[req.CallID] = a
	s.callMu.Unlock()
	select {
	case s.slots <- struct{}{}:
	default:
		s.end(req.CallID, a, nil)
		return nil, nil
	}
	rec := &CallRecord{
		CallID: req.CallID, Tool: req.Tool, Token: req.Token, PayloadDigest: digest,
		Revision: e.reg.Revision, Endpoint: e.reg.Endpoint, AdmittedAt: s.opts.now().UTC().Round(0),
	}
	// Those waiting for a share what the store answers: the caller going
	// away must not fail them.
	_, isNew, fence, err := s.store.AdmitAndHandOver(context.WithoutCancel(ctx), rec, s.instance, claimTTL)
	if err != nil || !isNew || fence == 0 {
		<-s.slots
		if err != nil && !errors.Is(err, ErrStale) {
			// The store may have made the admission and the hand-over with
			// its answer lost; the call was not sent, so they are returned
			// (while this attempt is registered, a claim of this service's
			// is this attempt's). A return that fails leaves the call's
			// outcome unknown, never sent twice.
			_ = s.store.ReturnUnsent(context.WithoutCancel(ctx), req.CallID, s.instance)
			err = s.storeError(fmt.Sprintf("admit call %q", req.CallID), err)
			s.end(req.CallID, a, err)
			return nil, err
		}
		s.end(req.CallID, a, nil) // the general path reads the record
		return nil, nil
	}
	s.wg.Add(1)
	go s.forward(rec.Endpoint, a, spec, &registry.CallRequest{CallID: req.CallID, Tool: req.Tool, Token: req.Token, Payload: append([]byte(nil), req.Payload...)}, fence, true)
	return a, nil
}
