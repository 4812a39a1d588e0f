package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/embeddedstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Service is a tool registry. It is safe for concurrent use.
type Service struct {
	opts  options
	store Store
	own   *embeddedstore.Store // the store the service opened, closed with it
	// instance tells this service's generations apart from those of
	// another service at the same address, such as an in-memory registry
	// restarted from generation 0.
	instance  string
	slots     chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once

	// mu guards the registrations read from the store, compiled: a map
	// replaced whole on every change, never modified.
	mu         sync.RWMutex
	loaded     bool
	generation uint64
	storeEpoch uint64 // the Store's Epoch the registrations were read in
	toolsets   map[string]*entry
	// resets counts the times the service dropped its registrations for a
	// store that lost changes (shared.go); written with mu held.
	resets atomic.Uint64

	// callMu guards the calls this service is forwarding now, and the
	// results that ran but could not be recorded (unrecorded.go).
	callMu     sync.Mutex
	running    map[string]*attempt
	unrecorded map[string]*registry.CallResult

	sweepMu   sync.Mutex
	lastSweep time.Time

	// listJSON is the encoded whole-registry catalog of one generation,
	// which every list request of that generation is answered with.
	listJSON atomic.Pointer[encodedCatalog]

	leases leaseCache
	claims claimSet // the claims of the calls this service forwards

	readyProbe generationProbe // the store reads of readiness checks (readyprobe.go)

	telemetry *telemetry
	log       *slog.Logger // the access log; discards without WithLogger
}

// encodedCatalog is the whole-registry catalog of one generation as the
// HTTP API answers it: each record encoded, and the first page's body.
type encodedCatalog struct {
	generation uint64
	instance   string // catalogInstance when encoded
	etag       string
	records    [][]byte
	first      []byte
}

var (
	_ registry.Consumer  = (*Service)(nil)
	_ registry.Publisher = (*Service)(nil)
)

// entry is a current registration with its compiled tools.
type entry struct {
	reg   registry.Registration
	specs map[tools.Ident]*tools.ToolSpec
}

// New returns a service. With WithDataDir it loads what an earlier service
// persisted there, checking every record as if it were published again;
// with WithStore it reads the given store the same way.
func New(opts ...Option) (*Service, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	if o.store != nil && o.dataDir != "" {
		return nil, fmt.Errorf("registry service: WithStore and WithDataDir both given")
	}
	nonce := make([]byte, 8)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("registry service: %w", err)
	}
	s := &Service{
		opts:     o,
		store:    o.store,
		instance: hex.EncodeToString(nonce),
		slots:    make(chan struct{}, o.maxInFlight),
		toolsets: make(map[string]*entry),
		running:  make(map[string]*attempt),
	}
	s.newTelemetry()
	if err := s.checkLeases(); err != nil {
		return nil, err
	}
	if s.store == nil {
		st, err := embeddedstore.Open(o.dataDir)
		if err != nil {
			return nil, err
		}
		s.own, s.store = st, st
	}
	if err := s.restore(); err != nil {
		if s.own != nil {
			s.own.Close()
		}
		return nil, fmt.Errorf("registry store %s: %w", o.dataDir, err)
	}
	return s, nil
}

// restore loads the store's registrations and forgets the calls that
// expired meanwhile. A store without space for that keeps them until a
// later sweep can write.
func (s *Service) restore() error {
	ctx := context.Background()
	if err := s.refresh(ctx, nil); err != nil {
		return err
	}
	if err := s.sweep(ctx); err != nil && !errors.Is(err, ErrStorageFull) && !errors.Is(err, ErrReadOnly) {
		return err
	}
	return nil
}

// refresh reads the registrations from the store and installs them when
// they are newer than the installed ones, or of a later epoch of a shared
// store (shared.go), reusing compiled tools: those already installed, and
// fresh (nil, or just compiled by a publish). Other records are checked
// and compiled, outside the lock.
func (s *Service) refresh(ctx context.Context, fresh *entry) error {
	gen, regs, epoch, err := s.readRegistrations(ctx)
	if err != nil {
		return err
	}
	s.mu.RLock()
	cur, stale := s.toolsets, !s.loaded || epoch > s.storeEpoch || gen > s.generation && epoch == s.storeEpoch
	s.mu.RUnlock()
	if !stale {
		return nil
	}
	next := make(map[string]*entry, len(regs))
	for _, reg := range regs {
		name := reg.Toolset.Name
		switch e := cur[name]; {
		case e != nil && sameRegistration(&e.reg, &reg):
			next[name] = e
		case fresh != nil && sameRegistration(&fresh.reg, &reg):
			next[name] = fresh
		default:
			e, err := compileEntry(reg, s.opts.schemaLimits)
			if err != nil {
				return err
			}
			next[name] = e
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.loaded && epoch > s.storeEpoch:
		s.resets.Add(1)
		if s.opts.logger != nil {
			s.opts.logger.Warn("registry: the store lost changes it had acknowledged; the node dropped its registrations and read the store again",
				"generation_held", s.generation, "generation_read", gen, "toolsets_held", len(s.toolsets), "toolsets_read", len(next), "store_resets", s.resets.Load())
		}
		fallthrough
	case !s.loaded || epoch == s.storeEpoch && gen > s.generation:
		s.loaded, s.generation, s.storeEpoch, s.toolsets = true, gen, epoch, next
	}
	return nil
}

// readRegistrations reads the store's registrations, with the epoch of a
// shared store they belong to: a read during which the store found it had
// lost changes may have begun before the loss, and is made again.
func (s *Service) readRegistrations(ctx context.Context) (uint64, []registry.Registration, uint64, error) {
	for {
		before := s.store.Epoch()
		gen, regs, err := s.store.Registrations(ctx)
		if err != nil {
			return 0, nil, 0, s.storeError("read the registrations", err)
		}
		if s.store.Epoch() == before {
			return gen, regs, before, nil
		}
		if err := retrying(ctx, "read the registrations"); err != nil {
			return 0, nil, 0, err
		}
	}
}

func sameRegistration(a, b *registry.Registration) bool {
	return a.Token == b.Token && a.Endpoint == b.Endpoint && a.Toolset.RegisteredAt.Equal(b.Toolset.RegisteredAt)
}

// compileEntry checks a registration's fingerprint and token against its
// content and compiles its tools.
func compileEntry(reg registry.Registration, limits registry.SchemaLimits) (*entry, error) {
	fp, specs, err := compileToolset(&reg.Toolset, limits)
	if err != nil {
		return nil, err
	}
	if fp != reg.Fingerprint || registry.NewToken(fp, reg.Revision) != reg.Token {
		return nil, fmt.Errorf("toolset %q: stored fingerprint %s or token %s does not match its content", reg.Toolset.Name, reg.Fingerprint, reg.Token)
	}
	return &entry{reg: reg, specs: specs}, nil
}

// compileToolset fingerprints a toolset and compiles its tools, once its
// schemas are known to be within the limits.
func compileToolset(ts *tools.ToolsetSchema, limits registry.SchemaLimits) (tools.Fingerprint, map[tools.Ident]*tools.ToolSpec, error) {
	if err := limits.Check(ts); err != nil {
		return "", nil, err
	}
	fp, err := contract.Fingerprint(ts)
	if err != nil {
		return "", nil, registry.Errorf(registry.CodeInvalidSchema, "%v", err)
	}
	specs := make(map[tools.Ident]*tools.ToolSpec, len(ts.Tools))
	for i := range ts.Tools {
		spec, err := contract.Compile(&ts.Tools[i])
		if err != nil {
			return "", nil, registry.Errorf(registry.CodeInvalidSchema, "toolset %q: %v", ts.Name, err)
		}
		specs[spec.Name] = spec
	}
	return fp, specs, nil
}

// internal returns the CodeInternal error of a failure inside the
// registry: a message naming what failed, the cause kept for in-process
// callers and the log, never sent to a client.
func (s *Service) internal(what string, err error) *registry.Error {
	e := registry.Internal(what, err)
	if s.opts.logger != nil {
		s.opts.logger.Error("registry: "+what, "err", err)
	}
	return e
}

// Close waits for the calls being forwarded to finish and record their
// outcome, tries once more to record the results it holds (unrecorded.go),
// then closes the store the service opened (not one given with WithStore).
// The service must not be used afterwards.
func (s *Service) Close() error {
	s.wg.Wait()
	s.recordAllHeld()
	s.closeOnce.Do(func() {
		if s.own != nil {
			s.own.Close()
		}
	})
	return nil
}

// Publish registers a toolset or replaces its registration; see
// registry.PublishRequest. The schemas are compiled and the fingerprint
// computed before anything changes; a rejected publish changes nothing.
// The schema limits apply first, before the toolset is validated, as on
// the HTTP path (registry.OutlinePublish).
func (s *Service) Publish(ctx context.Context, req *registry.PublishRequest) (*registry.PublishResult, error) {
	if err := s.opts.schemaLimits.Check(&req.Toolset); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	endpoint, err := s.opts.rules.check(req.Toolset.Name, req.Endpoint)
	if err != nil {
		return nil, err
	}
	ts := contract.CloneToolset(&req.Toolset)
	fp, specs, err := compileToolset(&ts, s.opts.schemaLimits)
	if err != nil {
		return nil, err
	}
	if req.Fingerprint != "" && req.Fingerprint != fp {
		return nil, registry.Errorf(registry.CodeFingerprintMismatch, "toolset %q: declared fingerprint %s, the registry computes %s", ts.Name, req.Fingerprint, fp)
	}
	token := registry.NewToken(fp, req.Revision)
	if err := checkRecordSize(&registry.Registration{Toolset: ts, Fingerprint: fp, Revision: req.Revision, Token: token, Endpoint: endpoint}); err != nil {
		return nil, err
	}
	if err := s.current(ctx); err != nil {
		return nil, err
	}
	for rechecked := false; ; {
		if err := retrying(ctx, fmt.Sprintf("publish toolset %q", ts.Name)); err != nil {
			return nil, err
		}
		cur := s.registration(ts.Name)
		status, prev := registry.Published, registry.Token("")
		if cur != nil {
			if cur.reg.Token == token && !rechecked {
				// Unchanged, or a conflict: decided on a fresh read.
				if err := s.recheck(ctx); err != nil {
					return nil, err
				}
				rechecked = true
				continue
			}
			if cur.reg.Token == token {
				if cur.reg.Endpoint != endpoint {
					return nil, registry.Errorf(registry.CodeRegistrationConflict, "toolset %q: revision %q with this fingerprint is registered with another endpoint; publish a new revision to move it", ts.Name, req.Revision)
				}
				return &registry.PublishResult{Status: registry.Unchanged, Registration: cloneRegistration(&cur.reg)}, nil
			}
			status, prev = registry.Replaced, cur.reg.Token
		}
		ts.RegisteredAt = s.opts.now().UTC().Round(0)
		e := &entry{
			reg:   registry.Registration{Toolset: ts, Fingerprint: fp, Revision: req.Revision, Token: token, Endpoint: endpoint},
			specs: specs,
		}
		_, err := s.store.PutRegistration(ctx, &e.reg, prev)
		if errors.Is(err, ErrStale) {
			// Another change came first: decide again against it.
			if err := s.refresh(ctx, nil); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, s.storeError(fmt.Sprintf("publish toolset %q", ts.Name), err)
		}
		if err := s.installChange(ctx, e); err != nil {
			return nil, err
		}
		return &registry.PublishResult{Status: status, Registration: cloneRegistration(&e.reg)}, nil
	}
}

// registeredAtBytes is room for the registration time, which is set once
// the record's size has been checked.
const registeredAtBytes = 64

// checkRecordSize refuses a registration whose encoding an answer could
// not carry; see registry.MaxAnswerRecordBytes.
func checkRecordSize(reg *registry.Registration) error {
	b, err := json.Marshal(reg)
	if err != nil {
		return registry.Errorf(registry.CodeInvalidSchema, "toolset %q: %v", reg.Toolset.Name, err)
	}
	if n := len(b) + registeredAtBytes; n > registry.MaxAnswerRecordBytes {
		return registry.Errorf(registry.CodeRecordTooLarge, "toolset %q: its registration encodes to %d bytes, over the %d bytes an answer may carry (registry.MaxAnswerRecordBytes)", reg.Toolset.Name, n, registry.MaxAnswerRecordBytes)
	}
	return nil
}

// Withdraw removes a toolset's current registration. Calls admitted under
// it that have no result yet end with registry.ErrAdmissionConflict when
// retried; recorded results stay. A withdrawal needs no new space in the
// embedded store, so it frees space on a full disk.
func (s *Service) Withdraw(ctx context.Context, req *registry.WithdrawRequest) error {
	if err := req.Validate(); err != nil {
		return err
	}
	if err := s.current(ctx); err != nil {
		return err
	}
	for rechecked := false; ; {
		if err := retrying(ctx, fmt.Sprintf("withdraw toolset %q", req.Toolset)); err != nil {
			return err
		}
		cur := s.registration(req.Toolset)
		if (cur == nil || cur.reg.Token != req.Token) && !rechecked {
			if err := s.recheck(ctx); err != nil {
				return err
			}
			rechecked = true
			continue
		}
		if cur == nil {
			return registry.Errorf(registry.CodeToolsetNotFound, "toolset %q is not registered", req.Toolset)
		}
		if cur.reg.Token != req.Token {
			return registry.Errorf(registry.CodeTokenMismatch, "toolset %q: token %s is not the current registration (revision %q)", req.Toolset, req.Token, cur.reg.Revision)
		}
		_, err := s.store.DeleteRegistration(ctx, req.Toolset, req.Token)
		if errors.Is(err, ErrStale) {
			if err := s.refresh(ctx, nil); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return s.storeError(fmt.Sprintf("withdraw toolset %q", req.Toolset), err)
		}
		return s.installChange(ctx, nil)
	}
}

// installChange reads the registrations again after a change this service
// made in its store (fresh: the registration it made, compiled). A shared
// store is read again before the next answer anyway (current), so a
// failure to read it now does not undo what the change's answer tells:
// the change is made, and stays made if the store goes away right after.
func (s *Service) installChange(ctx context.Context, fresh *entry) error {
	err := s.refresh(ctx, fresh)
	if s.store.Traits().Shared && errors.Is(err, ErrUnavailable) {
		return nil
	}
	return err
}

// storeError is the registry error of a failed store operation: what
// failed and, on a full store, what to do; never the store's own error,
// which may name internal paths. That error is the Cause, kept for
// in-process callers and the log.
func (s *Service) storeError(what string, err error) error {
	var e *registry.Error
	s.countStoreError(err)
	switch {
	case errors.Is(err, ErrUnavailable):
		e = unavailableError(what)
	case errors.Is(err, ErrReadOnly):
		e = registry.Errorf(registry.CodeStorageFull, "%s: the registry is read-only: its store had no space when it started; free space and restart it", what)
	case errors.Is(err, ErrStorageFull):
		e = registry.Errorf(registry.CodeStorageFull, "%s: the registry's store has no space left; withdraw toolsets or free space, then retry", what)
	default:
		return s.internal(what, err)
	}
	e.Cause = err
	if s.opts.logger != nil {
		s.opts.logger.Error("registry: "+what, "err", err)
	}
	return e
}

// ListToolsets reads every registered toolset, sorted by name.
func (s *Service) ListToolsets(ctx context.Context) (*registry.Catalog, error) {
	if err := s.current(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := s.catalogLocked()
	for i := range out.Toolsets {
		out.Toolsets[i].Toolset = contract.CloneToolset(&out.Toolsets[i].Toolset)
	}
	return out, nil
}

// catalogLocked returns the whole-registry catalog sharing the stored
// records, which the caller must copy or only read. s.mu must be held.
func (s *Service) catalogLocked() *registry.Catalog {
	out := &registry.Catalog{Generation: s.generation, Toolsets: make([]registry.ResolvedToolset, 0, len(s.toolsets))}
	for _, e := range s.toolsets {
		out.Toolsets = append(out.Toolsets, e.reg.Resolved())
	}
	slices.SortFunc(out.Toolsets, func(a, b registry.ResolvedToolset) int { return strings.Compare(a.Toolset.Name, b.Toolset.Name) })
	return out
}

// catalogJSON returns the encoded whole-registry catalog and its entity
// tag, encoding it once per generation.
func (s *Service) catalogJSON() (*encodedCatalog, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if c := s.listJSON.Load(); c != nil && c.generation == s.generation && c.instance == s.catalogInstance() {
		return c, nil
	}
	records, err := encodeRecords(s.catalogLocked().Toolsets)
	if err != nil {
		return nil, s.internal("encode catalog", err)
	}
	c := &encodedCatalog{
		generation: s.generation,
		instance:   s.catalogInstance(),
		etag:       fmt.Sprintf(`"%s-%d"`, s.catalogInstance(), s.generation),
		records:    records,
	}
	c.first = pageBody(c.generation, records, 0, pageEnd(records, 0, s.opts.maxPage), cursor{instance: c.instance, generation: c.generation})
	s.listJSON.Store(c)
	return c, nil
}

// ResolveToolsets reads the named toolsets in request order, all or none.
func (s *Service) ResolveToolsets(ctx context.Context, refs []registry.ToolsetRef) (*registry.Catalog, error) {
	req := registry.ResolveRequest{Toolsets: refs}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if err := s.current(ctx); err != nil {
		return nil, err
	}
	if !s.resolvable(refs) {
		if err := s.recheck(ctx); err != nil {
			return nil, err
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := &registry.Catalog{Generation: s.generation, Toolsets: make([]registry.ResolvedToolset, 0, len(refs))}
	for _, ref := range refs {
		e := s.toolsets[ref.Name]
		if e == nil {
			return nil, registry.Errorf(registry.CodeToolsetNotFound, "toolset %q is not registered", ref.Name)
		}
		if ref.Version != "" && ref.Version != e.reg.Toolset.Version {
			return nil, registry.Errorf(registry.CodeVersionMismatch, "toolset %q: pinned version %q, the registered version is %s", ref.Name, ref.Version, versionText(e.reg.Toolset.Version))
		}
		if err := s.live(ctx, e); err != nil {
			return nil, err
		}
		out.Toolsets = append(out.Toolsets, resolved(&e.reg))
	}
	return out, nil
}

func versionText(v string) string {
	if v == "" {
		return "unset"
	}
	return fmt.Sprintf("%q", v)
}

func resolved(reg *registry.Registration) registry.ResolvedToolset {
	r := reg.Resolved()
	r.Toolset = contract.CloneToolset(&reg.Toolset)
	return r
}

func cloneRegistration(reg *registry.Registration) registry.Registration {
	out := *reg
	out.Toolset = contract.CloneToolset(&reg.Toolset)
	return out
}
