package embeddedstore

// The embedded store: the Store of a single registry process, in memory and
// persisted to a data directory when one is given (disk.go).
//
// The maps are guarded by one lock that is only ever held briefly, never
// across a write to disk, so that reads and other changes do not wait for a
// sync. A call being written (admitted,
// completed or forgotten) is marked busy; another operation on the same call
// waits for that write to end, so that a call is never seen admitted before
// its admission is durable, and two writes of one call never race in the
// journal. Calls of different IDs are written concurrently and share the
// journal's syncs.
//
// The store records the attempts of its calls (embedded_attempts.go) by
// the rules of package service's attempts.go, so that
// a call handed to its provider without a recorded result is never sent
// again, across restarts too.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Store is the embedded store, a service's default store.Store: the
// registrations and calls of one registry process, in memory, and written
// to a data directory before each change is acknowledged when it has one
// (disk). One brief lock guards the maps, never held across a write; a
// call being written is busy, and other operations on it wait for the
// write to end. It records the attempts of its calls
// (embedded_attempts.go), the claims in memory, the hand-overs with the
// calls' records.
type Store struct {
	disk *disk // nil: in memory only
	// readOnly, when set, refuses every change: the store could not be
	// written when it was opened.
	readOnly error

	genSync *generationSyncer // with disk

	mu sync.Mutex
	// generation is the installed generation; reserved, at least as high,
	// the highest number handed to a change.
	generation uint64
	reserved   uint64
	regs       map[string]registry.Registration
	regBusy    map[string]chan struct{} // toolsets with a change in flight
	calls      map[string]*storedCall
	// fence is the last claim fence handed out. It starts at the time the
	// store opened, in nanoseconds, or past every fence of a hand-over the
	// data directory holds if that is higher: a new fence is above every
	// fence an earlier process handed out, as no process claims a call
	// each nanosecond.
	fence uint64
}

var _ store.Store = (*Store)(nil)

// storedCall is a call's record; busy is non-nil while a write of it is in
// flight.
type storedCall struct {
	rec  store.CallRecord
	busy chan struct{}
	// sent is the fence of the claim the call was handed over under while
	// that hand-over is outstanding, 0 otherwise; durable with rec.
	sent uint64
	// claim is the fence of the current claim (0: none), of owner, until
	// it lapses. Claims live in memory only: a restarted store has none,
	// each one having been its process's.
	claim uint64
	owner string
	until time.Time
}

// Open opens the store persisted in dir, or an empty store in memory when
// dir is empty. The generation moves past the persisted one: a change
// acknowledged just before a crash may have written its registration but
// not the generation, and a consumer must never see one generation twice
// with different contents. When that, or creating the
// calls' journal, fails for want of space, the store opens read-only.
func Open(dir string) (*Store, error) {
	s := &Store{regs: make(map[string]registry.Registration), regBusy: make(map[string]chan struct{}), calls: make(map[string]*storedCall),
		fence: uint64(time.Now().UnixNano())}
	if dir == "" {
		return s, nil
	}
	d, snap, err := openDisk(dir)
	switch {
	case errors.Is(err, store.ErrStorageFull) && d != nil:
		s.readOnly = fmt.Errorf("%w: the store could not be written when the registry started (%w)", store.ErrReadOnly, err)
	case err != nil:
		return nil, err
	}
	s.disk = d
	for _, st := range snap.toolsets {
		s.regs[st.Registration.Toolset.Name] = st.Registration
	}
	for _, rec := range snap.calls {
		s.calls[rec.CallID] = &storedCall{rec: rec.CallRecord, sent: rec.HandedOver}
		s.fence = max(s.fence, rec.HandedOver)
	}
	s.generation = snap.generation + 1
	s.reserved = s.generation
	s.genSync = newGenerationSyncer(s.generation, d.putGeneration)
	if s.readOnly == nil {
		err := d.putGeneration(s.generation)
		switch {
		case errors.Is(err, store.ErrStorageFull):
			s.readOnly = fmt.Errorf("%w: the store could not be written when the registry started (%w)", store.ErrReadOnly, err)
		case err != nil:
			d.close()
			return nil, err
		}
	}
	return s, nil
}

// Traits implements store.Store: the embedded store is changed only through the
// services of its process, and keeps no leases.
func (s *Store) Traits() store.StoreTraits { return store.StoreTraits{} }

// Generation implements store.Store: the installed generation.
func (s *Store) Generation(context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.generation, nil
}

// Epoch implements store.Store: the embedded store never loses what it
// acknowledged.
func (s *Store) Epoch() uint64 { return 0 }

// RenewLease implements store.Store: the embedded store keeps no leases.
func (s *Store) RenewLease(context.Context, string, registry.Token, time.Time) error {
	return store.ErrNoLeases
}

// Lease implements store.Store: the embedded store keeps no leases.
func (s *Store) Lease(context.Context, string) (time.Time, error) {
	return time.Time{}, store.ErrNoLeases
}

// Close releases the files of the store. A service closes the store it
// opened (service.WithDataDir), not one given to it (service.WithStore).
func (s *Store) Close() {
	if s.disk != nil {
		s.disk.close()
	}
}

// Registrations implements store.Store.
func (s *Store) Registrations(context.Context) (uint64, []registry.Registration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]registry.Registration, 0, len(s.regs))
	for _, r := range s.regs {
		out = append(out, r)
	}
	return s.generation, out, nil
}

// PutRegistration implements store.Store.
func (s *Store) PutRegistration(_ context.Context, reg *registry.Registration, prev registry.Token) (uint64, error) {
	return s.changeRegistration(reg.Toolset.Name, prev, reg)
}

// DeleteRegistration implements store.Store. It needs no new space: the
// generation is overwritten in place, then the toolset's file removed.
func (s *Store) DeleteRegistration(_ context.Context, toolset string, token registry.Token) (uint64, error) {
	if token == "" {
		return 0, fmt.Errorf("%w: toolset %q: no token to withdraw", store.ErrStale, toolset)
	}
	return s.changeRegistration(toolset, token, nil)
}

// changeRegistration replaces the registration of toolset with reg (nil:
// removes it) provided its token is prev; see Store.PutRegistration.
//
// A change of one toolset waits for the change of it in flight; changes of
// different toolsets are written concurrently. Each reserves a generation
// number and makes a generation at least that high durable (writes of the
// generation are shared, see generationSyncer) before its toolset's file is
// written or removed; the installed generation counts installed changes, so
// it never exceeds a durable one. A change that fails leaves a skipped
// generation number, which is harmless.
func (s *Store) changeRegistration(toolset string, prev registry.Token, reg *registry.Registration) (uint64, error) {
	if s.readOnly != nil {
		return 0, s.readOnly
	}
	s.mu.Lock()
	for s.regBusy[toolset] != nil {
		busy := s.regBusy[toolset]
		s.mu.Unlock()
		<-busy
		s.mu.Lock()
	}
	if cur := s.regs[toolset]; cur.Token != prev {
		s.mu.Unlock()
		return 0, fmt.Errorf("%w: toolset %q has token %q, not %q", store.ErrStale, toolset, cur.Token, prev)
	}
	busy := make(chan struct{})
	s.regBusy[toolset] = busy
	s.reserved++
	reserved := s.reserved
	s.mu.Unlock()
	var err error
	if s.disk != nil {
		err = s.genSync.sync(reserved, s.reservedGeneration)
		switch {
		case err != nil:
		case reg != nil:
			err = s.disk.putToolset(&storedToolset{Registration: *reg})
		default:
			err = s.disk.deleteToolset(toolset)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.regBusy, toolset)
	close(busy)
	if err != nil {
		return 0, err
	}
	s.generation++
	if reg != nil {
		s.regs[toolset] = *reg
	} else {
		delete(s.regs, toolset)
	}
	return s.generation, nil
}

// reservedGeneration is the highest generation number reserved.
func (s *Store) reservedGeneration() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reserved
}

// generationSyncer shares writes of the generation among concurrent
// changes: a change waits for the write in flight, and a write writes the
// highest generation reserved when it starts, which covers every change
// that reserved one before.
type generationSyncer struct {
	mu      sync.Mutex
	cond    *sync.Cond
	durable uint64
	busy    bool
	write   func(uint64) error
}

func newGenerationSyncer(durable uint64, write func(uint64) error) *generationSyncer {
	g := &generationSyncer{durable: durable, write: write}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// sync returns once a generation of at least v is durable, writing
// target() when no write in flight covers v.
func (g *generationSyncer) sync(v uint64, target func() uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.durable < v {
		if g.busy {
			g.cond.Wait()
			continue
		}
		g.busy = true
		t := target()
		g.mu.Unlock()
		err := g.write(t)
		g.mu.Lock()
		g.busy = false
		g.cond.Broadcast()
		if err != nil {
			return err
		}
		g.durable = max(g.durable, t)
	}
	return nil
}

// lockCall locks s.mu and returns the call's record, nil when it has none,
// once no write of it is in flight.
func (s *Store) lockCall(id string) *storedCall {
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

// Admit implements store.Store.
func (s *Store) Admit(_ context.Context, rec *store.CallRecord) (*store.CallRecord, bool, error) {
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
		return nil, false, fmt.Errorf("%w: toolset %q has token %q, not %q", store.ErrStale, rec.Tool.Toolset(), cur.Token, rec.Token)
	}
	c = &storedCall{rec: *rec.Clone(), busy: make(chan struct{})}
	s.calls[rec.CallID] = c
	s.mu.Unlock()
	var err error
	if s.disk != nil {
		err = s.disk.putCall(&c.rec, 0)
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

// Complete implements store.Store. A recorded result ends the call's claim and
// hand-over.
func (s *Store) Complete(_ context.Context, callID string, res *registry.CallResult) (*store.CallRecord, error) {
	if s.readOnly != nil {
		return nil, s.readOnly
	}
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c == nil {
		return nil, fmt.Errorf("%w: call %q", store.ErrNotAdmitted, callID)
	}
	return s.completeLocked(c, res)
}

// completeLocked records res as the result of c unless it has one, and
// returns c's record. s.mu must be held, c not busy.
func (s *Store) completeLocked(c *storedCall, res *registry.CallResult) (*store.CallRecord, error) {
	if c.rec.Result == nil {
		rec := c.rec.Clone()
		rec.Result = store.CloneResult(res)
		if err := s.write(c, rec, 0); err != nil {
			return nil, err
		}
		c.claim = 0
	}
	return c.rec.Clone(), nil
}

// write makes next, with the fence of its outstanding hand-over sent (0:
// none), the durable record of c, and installs it. s.mu must be held and
// c not busy; the lock is released while the journal syncs, c marked busy
// meanwhile, and held again on return. A write that fails changes nothing.
func (s *Store) write(c *storedCall, next *store.CallRecord, sent uint64) error {
	if s.disk != nil {
		c.busy = make(chan struct{})
		s.mu.Unlock()
		err := s.disk.putCall(next, sent)
		s.mu.Lock()
		release(c)
		if err != nil {
			return err
		}
	}
	c.rec, c.sent = *next, sent
	return nil
}

// Call implements store.Store.
func (s *Store) Call(_ context.Context, callID string) (*store.CallRecord, error) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	if c == nil {
		return nil, nil
	}
	return c.rec.Clone(), nil
}

// Forget implements store.Store. keep is called with the store locked. A call
// being forwarded under a current claim is kept. A failure part of the way
// keeps the records not yet forgotten, and reports it.
func (s *Store) Forget(_ context.Context, cutoff time.Time, keep func(string) bool) (int, error) {
	if s.readOnly != nil {
		return 0, s.readOnly
	}
	s.mu.Lock()
	var ids []string
	var marked []*storedCall
	now := time.Now()
	for id, c := range s.calls {
		if c.busy != nil || c.claimed(now) != 0 || !c.rec.LastEvent().Before(cutoff) || keep(id) {
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

// ListCalls implements store.Store.
func (s *Store) ListCalls(_ context.Context, pending bool, limit int) ([]*store.CallRecord, bool, error) {
	s.mu.Lock()
	recs := make([]*store.CallRecord, 0, len(s.calls))
	for _, c := range s.calls {
		if !pending || c.rec.Result == nil {
			recs = append(recs, c.rec.Clone())
		}
	}
	s.mu.Unlock()
	out, more := store.SortCalls(recs, limit)
	return out, more, nil
}
