package service

// Call admission. A call is admitted when it first arrives with the current
// token of its toolset and a payload its tool accepts; the admission is
// persisted before the call is forwarded and binds the call ID to its tool,
// token, payload digest and assignment (the registration's revision and
// endpoint). An attempt forwards the call; while one runs, the same call
// arriving again waits for it rather than running twice. An attempt that
// ends without a result (overload, provider failure) leaves the admission
// pending for a retry, which continues only while the admission's token is
// still current. A recorded result is final: every later retry gets it. A
// call that ran but whose result could not be recorded is never sent again
// (unrecorded.go).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// attempt is one forwarding of a call; done closes when it ends, and err is
// then its failure, nil when a result was recorded; res is then the
// recorded result when this attempt recorded it or found it recorded.
type attempt struct {
	done chan struct{}
	err  error
	res  *registry.CallResult
}

// CallResolvedTool admits the call, or finds its earlier admission,
// forwards it and returns its recorded result. A call is admitted when it
// first arrives with the current token of its toolset and a payload its
// tool accepts; the admission is stored before the call is forwarded. While
// an attempt runs, the same call arriving again waits for it instead of
// running twice; a recorded result is final, and every retry gets it. A new
// call whose token is not current is registry.ErrCallNotAdmitted; a retry
// that differs from its admission, or whose admission was replaced before a
// result was recorded, is registry.ErrAdmissionConflict; a call that could
// not be forwarded now is registry.ErrOverloaded or
// registry.ErrProviderUnavailable and stays admitted.
func (s *Service) CallResolvedTool(ctx context.Context, req *registry.CallRequest) (*registry.CallResult, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	canon, err := tools.Canonicalize(req.Payload)
	if err != nil {
		return nil, registry.Errorf(registry.CodeInvalidPayload, "call %q: payload: %v", req.CallID, err)
	}
	sum := sha256.Sum256(canon)
	digest := hex.EncodeToString(sum[:])
	// A new call takes the normal path first (sending.go), on which the
	// call's record is not read before the store's admission.
	for unread := true; ; unread = false {
		if !unread { // the normal path allocates no message before its store step
			if err := retrying(ctx, fmt.Sprintf("call %q", req.CallID)); err != nil {
				return nil, err
			}
		}
		a, res, err := s.admit(ctx, req, digest, unread)
		if err != nil || res != nil {
			return res, err
		}
		if a == nil {
			continue // the record went away meanwhile, or is to be read: admit anew
		}
		select {
		case <-a.done:
		case <-ctx.Done():
			return nil, fmt.Errorf("call %q: %w", req.CallID, ctx.Err())
		}
		if a.err != nil {
			return nil, a.err
		}
		if a.res != nil {
			return a.res, nil
		}
	}
}

// admit returns the call's recorded result, or the attempt to wait for;
// neither when the call is to be admitted anew, its record read. unread:
// the call is taken for new, and its record is read only if admission
// refuses it; it is then admitted, claimed and handed over in one step
// (sendNew). Admissions and results are written to the store without a
// lock of the service held, so that concurrent calls share the store's
// syncs.
func (s *Service) admit(ctx context.Context, req *registry.CallRequest, digest string, unread bool) (*attempt, *registry.CallResult, error) {
	var rec *CallRecord
	if !unread {
		r, err := s.store.Call(ctx, req.CallID)
		if err != nil {
			return nil, nil, s.storeError(fmt.Sprintf("read call %q", req.CallID), err)
		}
		rec = r
	}
	var spec *tools.ToolSpec
	if rec == nil {
		e, sp, refusal, err := s.admission(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		if refusal != nil && unread {
			// A retry of an admitted call is decided by its record.
			r, err := s.store.Call(ctx, req.CallID)
			if err != nil {
				return nil, nil, s.storeError(fmt.Sprintf("read call %q", req.CallID), err)
			}
			rec = r
		}
		if rec == nil && refusal != nil {
			return nil, nil, refusal
		}
		if rec == nil {
			// Forget expired calls before admitting: a failure to forget
			// then refuses this call rather than leaving it admitted but
			// unsent.
			if err := s.sweep(ctx); err != nil {
				return nil, nil, s.storeError("forget expired calls", err)
			}
			if unread {
				a, err := s.sendNew(ctx, req, digest, e, sp)
				return a, nil, err
			}
			stored, isNew, err := s.store.Admit(ctx, &CallRecord{
				CallID: req.CallID, Tool: req.Tool, Token: req.Token, PayloadDigest: digest,
				Revision: e.reg.Revision, Endpoint: e.reg.Endpoint, AdmittedAt: s.opts.now().UTC().Round(0),
			})
			switch {
			case errors.Is(err, ErrStale):
				// The store's registration is newer than the one this
				// service read: read it, to name it.
				if rerr := s.refresh(ctx, nil); rerr != nil {
					return nil, nil, registry.Errorf(registry.CodeCallNotAdmitted, "call %q: token %s is no longer the current registration of toolset %q; resolve the toolset again", req.CallID, req.Token, req.Tool.Toolset())
				}
				return nil, nil, notAdmitted(req, s.registration(req.Tool.Toolset()))
			case err != nil:
				return nil, nil, s.storeError(fmt.Sprintf("admit call %q", req.CallID), err)
			}
			rec = stored
			if isNew {
				spec = sp
			} // else admitted meanwhile by another arrival: check against it
		}
	}
	if spec == nil {
		if err := sameCall(rec, req, digest); err != nil {
			return nil, nil, err
		}
		if rec.Result != nil {
			return nil, rec.Result, nil
		}
		if held := s.heldResult(req.CallID); held != nil {
			res, err := s.recordHeld(ctx, held)
			return nil, res, err
		}
		e, err := s.currentRegistration(ctx, rec.Tool.Toolset(), rec.Token)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case e == nil:
			return nil, nil, registry.Errorf(registry.CodeAdmissionConflict, "call %q was admitted under token %s of toolset %q, which has since been withdrawn", req.CallID, rec.Token, rec.Tool.Toolset())
		case e.reg.Token != rec.Token:
			return nil, nil, registry.Errorf(registry.CodeAdmissionConflict, "call %q was admitted under token %s (revision %q), since replaced by revision %q", req.CallID, rec.Token, rec.Revision, e.reg.Revision)
		}
		if err := s.live(ctx, e); err != nil {
			return nil, nil, err
		}
		spec = e.specs[rec.Tool]
	}
	return s.start(ctx, rec, spec, req)
}

// admission decides whether req, a call with no record, is admitted now:
// its token is the current registration of its toolset, its tool is
// registered, its provider's lease is live and its payload is one the tool
// accepts. It returns the registration and the tool's spec, or the refusal
// (a registry error: a failure to read a lease is one too); err is a
// failure to read the registrations.
func (s *Service) admission(ctx context.Context, req *registry.CallRequest) (e *entry, spec *tools.ToolSpec, refusal, err error) {
	e, err = s.currentRegistration(ctx, req.Tool.Toolset(), req.Token)
	if err != nil {
		return nil, nil, nil, err
	}
	switch {
	case e == nil:
		return nil, nil, registry.Errorf(registry.CodeCallNotAdmitted, "call %q: toolset %q is not registered; token %s is not admitted", req.CallID, req.Tool.Toolset(), req.Token), nil
	case e.reg.Token != req.Token:
		return nil, nil, notAdmitted(req, e), nil
	}
	spec = e.specs[req.Tool]
	if spec == nil {
		return nil, nil, registry.Errorf(registry.CodeToolNotFound, "call %q: toolset %q (revision %q) has no tool %q", req.CallID, req.Tool.Toolset(), e.reg.Revision, req.Tool), nil
	}
	if err := s.live(ctx, e); err != nil {
		return nil, nil, err, nil // an expired lease, or the store's failure to tell
	}
	if _, err := spec.Payload.Decode(req.Payload); err != nil {
		return nil, nil, registry.Errorf(registry.CodeInvalidPayload, "call %q to %q: %v", req.CallID, req.Tool, err), nil
	}
	return e, spec, nil, nil
}

// currentRegistration returns the current registration of toolset (nil:
// none), read again from a shared store before it is found missing or
// under a token other than token (fresh.go).
func (s *Service) currentRegistration(ctx context.Context, toolset string, token registry.Token) (*entry, error) {
	if err := s.current(ctx); err != nil {
		return nil, err
	}
	e := s.registration(toolset)
	if e == nil || e.reg.Token != token {
		if err := s.recheck(ctx); err != nil {
			return nil, err
		}
		e = s.registration(toolset)
	}
	return e, nil
}

// notAdmitted is the error of a new call whose token is not the current
// registration e (nil: none).
func notAdmitted(req *registry.CallRequest, e *entry) error {
	if e == nil {
		return registry.Errorf(registry.CodeCallNotAdmitted, "call %q: toolset %q is not registered; token %s is not admitted", req.CallID, req.Tool.Toolset(), req.Token)
	}
	return registry.Errorf(registry.CodeCallNotAdmitted, "call %q: token %s is not the current registration of toolset %q (revision %q); resolve the toolset again", req.CallID, req.Token, req.Tool.Toolset(), e.reg.Revision)
}

// start joins the attempt forwarding the admitted call, or starts one. The
// record is read again once no attempt runs: one that ended since rec was
// read has recorded its result. It returns no attempt and no result when
// the record was forgotten meanwhile.
//
// The attempt is registered before the store is read, so that the same
// call arriving meanwhile waits for it, and s.callMu is not held while the
// store answers.
func (s *Service) start(ctx context.Context, rec *CallRecord, spec *tools.ToolSpec, req *registry.CallRequest) (*attempt, *registry.CallResult, error) {
	s.callMu.Lock()
	if a := s.running[req.CallID]; a != nil {
		s.callMu.Unlock()
		return a, nil, nil
	}
	if held := s.unrecorded[req.CallID]; held != nil {
		// It ran, and its result is not recorded yet: never sent again.
		s.callMu.Unlock()
		res, err := s.recordHeld(ctx, held)
		return nil, res, err
	}
	a := &attempt{done: make(chan struct{})}
	s.running[req.CallID] = a
	s.callMu.Unlock()
	// Those waiting for a share what the store answers: the caller going
	// away must not fail them.
	wait := ctx
	ctx = context.WithoutCancel(ctx)
	cur, err := s.store.Call(ctx, req.CallID)
	switch {
	case err != nil:
		err = s.storeError(fmt.Sprintf("read call %q", req.CallID), err)
		s.end(req.CallID, a, err)
		return nil, nil, err
	case cur == nil || cur.Result != nil:
		s.end(req.CallID, a, nil) // those waiting read the record again
		if cur == nil {
			return nil, nil, nil
		}
		return nil, cur.Result, nil
	}
	fence, mine, err := s.claim(ctx, wait, req.CallID, a)
	switch {
	case err != nil:
		s.end(req.CallID, a, err)
		return nil, nil, err
	case !mine:
		return a, nil, nil
	}
	select {
	case s.slots <- struct{}{}:
	default:
		s.release(req.CallID, fence)
		e := registry.Errorf(registry.CodeOverloaded, "call %q is admitted, but %d calls are already being forwarded; retry it", req.CallID, cap(s.slots))
		e.RetryAfter = DefaultRetryAfter
		s.end(req.CallID, a, e)
		return nil, nil, e
	}
	fwd := &registry.CallRequest{CallID: req.CallID, Tool: req.Tool, Token: req.Token, Payload: bytes.Clone(req.Payload)}
	s.wg.Add(1)
	go s.forward(rec.Endpoint, a, spec, fwd, fence, false)
	return a, nil, nil
}

// end ends an attempt that forwarded nothing, with err (nil: those waiting
// for it read the record again).
func (s *Service) end(callID string, a *attempt, err error) {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	if s.running[callID] == a {
		delete(s.running, callID)
	}
	if err != nil {
		a.err = err // a registry error: the store's, or a refusal
	}
	close(a.done)
}

// registration returns the current registration of a toolset, or nil. An
// entry is never modified once installed, so it may be used after the lock
// is released.
func (s *Service) registration(toolset string) *entry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.toolsets[toolset]
}

// forward runs one attempt under the claim fence (see send). It does not
// depend on the caller's context: a caller that gives up does not stop the
// call, whose result a retry finds.
func (s *Service) forward(endpoint string, a *attempt, spec *tools.ToolSpec, req *registry.CallRequest, fence uint64, handedOver bool) {
	defer s.wg.Done()
	stop := s.holdClaim(req.CallID, fence)
	res, err := s.send(endpoint, req, fence, handedOver, func(pr *registry.ProviderResult) (*registry.CallResult, error) {
		return s.outcome(spec, req, pr)
	})
	stop()
	s.callMu.Lock()
	defer s.callMu.Unlock()
	if err != nil {
		e := asRegistryError(req, err)
		if s.opts.logger != nil && e.Cause != nil {
			s.opts.logger.Warn("registry: call not completed", "call", req.CallID, "tool", req.Tool, "err", e.Message, "cause", e.Cause)
		}
		a.err = e
	}
	a.res = res
	delete(s.running, req.CallID)
	close(a.done)
}

// outcome checks a provider's answer against the tool's contract.
func (s *Service) outcome(spec *tools.ToolSpec, req *registry.CallRequest, pr *registry.ProviderResult) (*registry.CallResult, error) {
	res := &registry.CallResult{CallID: req.CallID, Tool: req.Tool, Token: req.Token, CompletedAt: s.opts.now().UTC().Round(0)}
	switch {
	case pr.ToolError != "" && len(pr.Result) > 0:
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "provider of %q answered call %q with both a result and a tool error", req.Tool, req.CallID)
	case pr.ToolError != "":
		res.ToolError = pr.ToolError
	case spec.Result != nil:
		if len(pr.Result) == 0 {
			return nil, registry.Errorf(registry.CodeProviderUnavailable, "provider of %q answered call %q without the result its schema describes", req.Tool, req.CallID)
		}
		if _, err := spec.Result.Decode(pr.Result); err != nil {
			return nil, registry.Errorf(registry.CodeProviderUnavailable, "provider of %q answered call %q with a result outside its contract: %v", req.Tool, req.CallID, err)
		}
		res.Result = bytes.Clone(pr.Result)
	case len(pr.Result) > 0:
		if !json.Valid(pr.Result) {
			return nil, registry.Errorf(registry.CodeProviderUnavailable, "provider of %q answered call %q with a result that is not JSON", req.Tool, req.CallID)
		}
		res.Result = bytes.Clone(pr.Result)
	}
	if b, err := json.Marshal(res); err != nil || len(b) > registry.MaxAnswerRecordBytes {
		return nil, registry.Errorf(registry.CodeProviderUnavailable, "provider of %q answered call %q with a result larger than the %d bytes an answer may carry", req.Tool, req.CallID, registry.MaxAnswerRecordBytes)
	}
	return res, nil
}

// sameCall reports how a retry differs from the admitted call, or nil.
func sameCall(rec *CallRecord, req *registry.CallRequest, digest string) error {
	switch {
	case rec.Tool != req.Tool:
		return registry.Errorf(registry.CodeAdmissionConflict, "call %q was admitted for tool %q, not %q", req.CallID, rec.Tool, req.Tool)
	case rec.Token != req.Token:
		return registry.Errorf(registry.CodeAdmissionConflict, "call %q was admitted under token %s, not %s; a retry keeps its token", req.CallID, rec.Token, req.Token)
	case rec.PayloadDigest != digest:
		return registry.Errorf(registry.CodeAdmissionConflict, "call %q was admitted with another payload", req.CallID)
	}
	return nil
}
