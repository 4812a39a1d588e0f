package service

// The embedded store: the Store of a single registry process, in memory and
// persisted to a data directory when one is given (disk.go).
//
// Registration changes are serialized by their own lock, held while the
// change is persisted; the maps are guarded by a second lock that is only
// ever held briefly, never across a write to disk, so that reads, and calls
// of other toolsets, do not wait for a sync. A call being written (admitted,
// completed or forgotten) is marked busy; another operation on the same call
// waits for that write to end, so that a call is never seen admitted before
// its admission is durable, and two writes of one call never race in the
// journal. Calls of different IDs are written concurrently and share the
// journal's syncs.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// embeddedStore is the default Store; see the file comment.
type embeddedStore struct {
	disk *disk // nil: in memory only
	// readOnly, when set, refuses every change: the store could not be
	// written when it was opened.
	readOnly error

	regMu sync.Mutex // serializes registration changes

	mu         sync.Mutex
	generation uint64
	regs       map[string]registry.Registration
	calls      map[string]*storedCall
}

var _ Store = (*embeddedStore)(nil)

// storedCall is a call's record; busy is non-nil while a write of it is in
// flight.
type storedCall struct {
	rec  CallRecord
	busy chan struct{}
}

// openEmbeddedStore opens the store persisted in dir, or an empty store in
// memory when dir is empty. The generation moves past the persisted one: a
// change acknowledged just before a crash may have written its
// registration but not the generation, and a consumer must never see one
// generation twice with different contents. When that, or moving calls of
// the earlier layout, fails for want of space, the store opens read-only.
func openEmbeddedStore(dir string) (*embeddedStore, error) {
	s := &embeddedStore{regs: make(map[string]registry.Registration), calls: make(map[string]*storedCall)}
	if dir == "" {
		return s, nil
	}
	d, snap, err := openDisk(dir)
	switch {
	case errors.Is(err, ErrStorageFull) && d != nil:
		s.readOnly = fmt.Errorf("%w: the store could not be written when the registry started (%w)", ErrReadOnly, err)
	case err != nil:
		return nil, err
	}
	s.disk = d
	for _, st := range snap.toolsets {
		s.regs[st.Registration.Toolset.Name] = st.Registration
	}
	for _, rec := range snap.calls {
		s.calls[rec.CallID] = &storedCall{rec: rec}
	}
	s.generation = snap.generation + 1
	if s.readOnly == nil {
		err := d.putGeneration(s.generation)
		switch {
		case errors.Is(err, ErrStorageFull):
			s.readOnly = fmt.Errorf("%w: the store could not be written when the registry started (%w)", ErrReadOnly, err)
		case err != nil:
			d.close()
			return nil, err
		}
	}
	return s, nil
}

// close releases the files of the store.
func (s *embeddedStore) close() {
	if s.disk != nil {
		s.disk.close()
	}
}

// Registrations implements Store.
func (s *embeddedStore) Registrations(context.Context) (uint64, []registry.Registration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]registry.Registration, 0, len(s.regs))
	for _, r := range s.regs {
		out = append(out, r)
	}
	return s.generation, out, nil
}

// PutRegistration implements Store. The generation is written before the
// registration: if the registration then fails to be written, a skipped
// generation number is harmless.
func (s *embeddedStore) PutRegistration(_ context.Context, reg *registry.Registration, prev registry.Token) (uint64, error) {
	name := reg.Toolset.Name
	s.regMu.Lock()
	defer s.regMu.Unlock()
	gen, err := s.checkToken(name, prev)
	if err != nil {
		return 0, err
	}
	if s.disk != nil {
		if err := s.disk.putGeneration(gen + 1); err != nil {
			return 0, err
		}
		if err := s.disk.putToolset(&storedToolset{Registration: *reg}); err != nil {
			return 0, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generation = gen + 1
	s.regs[name] = *reg
	return s.generation, nil
}

// DeleteRegistration implements Store. It needs no new space: the
// generation is overwritten in place, then the toolset's file removed.
func (s *embeddedStore) DeleteRegistration(_ context.Context, toolset string, token registry.Token) (uint64, error) {
	s.regMu.Lock()
	defer s.regMu.Unlock()
	gen, err := s.checkToken(toolset, token)
	if err != nil {
		return 0, err
	}
	if token == "" {
		return 0, fmt.Errorf("%w: toolset %q is not registered", ErrStale, toolset)
	}
	if s.disk != nil {
		if err := s.disk.putGeneration(gen + 1); err != nil {
			return 0, err
		}
		if err := s.disk.deleteToolset(toolset); err != nil {
			return 0, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generation = gen + 1
	delete(s.regs, toolset)
	return s.generation, nil
}

// checkToken returns the generation when the toolset's current token is
// want. s.regMu must be held.
func (s *embeddedStore) checkToken(toolset string, want registry.Token) (uint64, error) {
	if s.readOnly != nil {
		return 0, s.readOnly
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.regs[toolset]; cur.Token != want {
		return 0, fmt.Errorf("%w: toolset %q has token %q, not %q", ErrStale, toolset, cur.Token, want)
	}
	return s.generation, nil
}

// lockCall locks s.mu and returns the call's record, nil when it has none,
// once no write of it is in flight.
func (s *embeddedStore) lockCall(id string) *storedCall {
	for {
		s.mu.Lock()
		c := s.calls[id]
		if c == nil || c.busy == nil {
			return c
		}
		busy := c.busy
		s.mu.Unlock()
		<-busy
	}
}

// release ends the write of c. s.mu must be held.
func release(c *storedCall) {
	close(c.busy)
	c.busy = nil
}

// Admit implements Store.
func (s *embeddedStore) Admit(_ context.Context, rec *CallRecord) (*CallRecord, bool, error) {
	if s.readOnly != nil {
		return nil, false, s.readOnly
	}
	c := s.lockCall(rec.CallID)
	if c != nil {
		out := c.rec.Clone()
		s.mu.Unlock()
		return out, false, nil
	}
	if cur := s.regs[rec.Tool.Toolset()]; cur.Token != rec.Token {
		s.mu.Unlock()
		return nil, false, fmt.Errorf("%w: toolset %q has token %q, not %q", ErrStale, rec.Tool.Toolset(), cur.Token, rec.Token)
	}
	c = &storedCall{rec: *rec.Clone(), busy: make(chan struct{})}
	s.calls[rec.CallID] = c
	s.mu.Unlock()
	var err error
	if s.disk != nil {
		err = s.disk.putCalls(&c.rec)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	release(c)
	if err != nil {
		delete(s.calls, rec.CallID)
		return nil, false, err
	}
	return c.rec.Clone(), true, nil
}

// Complete implements Store.
func (s *embeddedStore) Complete(_ context.Context, callID string, res *registry.CallResult) (*CallRecord, error) {
	if s.readOnly != nil {
		return nil, s.readOnly
	}
	c := s.lockCall(callID)
	if c == nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("%w: call %q", ErrNotAdmitted, callID)
	}
	if c.rec.Result != nil {
		out := c.rec.Clone()
		s.mu.Unlock()
		return out, nil
	}
	rec := c.rec.Clone()
	rec.Result = cloneResult(res)
	c.busy = make(chan struct{})
	s.mu.Unlock()
	var err error
	if s.disk != nil {
		err = s.disk.putCalls(rec)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	release(c)
	if err != nil {
		return nil, err
	}
	c.rec = *rec
	return rec.Clone(), nil
}

// Call implements Store.
func (s *embeddedStore) Call(_ context.Context, callID string) (*CallRecord, error) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c == nil {
		return nil, nil
	}
	return c.rec.Clone(), nil
}

// Forget implements Store. keep is called with the store locked. A failure
// part of the way keeps the records not yet forgotten, and reports it.
func (s *embeddedStore) Forget(_ context.Context, cutoff time.Time, keep func(string) bool) (int, error) {
	if s.readOnly != nil {
		return 0, s.readOnly
	}
	s.mu.Lock()
	var ids []string
	var marked []*storedCall
	for id, c := range s.calls {
		if c.busy != nil || !c.rec.LastEvent().Before(cutoff) || keep(id) {
			continue
		}
		c.busy = make(chan struct{})
		ids = append(ids, id)
		marked = append(marked, c)
	}
	s.mu.Unlock()
	if len(ids) == 0 {
		return 0, nil
	}
	n, err := len(ids), error(nil)
	if s.disk != nil {
		n, err = s.disk.forgetCalls(ids)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range marked {
		release(c)
		if i < n {
			delete(s.calls, ids[i])
		}
	}
	return n, err
}
