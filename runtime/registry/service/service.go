package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Service is a tool registry. It is safe for concurrent use.
type Service struct {
	opts options
	disk *disk // nil when the store is only in memory
	// instance tells this service's generations apart from those of
	// another service at the same address, such as an in-memory registry
	// restarted from generation 0.
	instance string
	slots    chan struct{}
	wg       sync.WaitGroup

	// mu guards the registrations. callMu guards the admitted calls and is
	// taken first when both are needed, so that persisting a call never
	// holds up catalog reads.
	mu         sync.RWMutex
	generation uint64
	toolsets   map[string]*entry
	callMu     sync.Mutex
	calls      map[string]*callState
	lastSweep  time.Time

	// listJSON is the encoded whole-registry catalog of one generation,
	// which every list request of that generation is answered with.
	listJSON atomic.Pointer[encodedCatalog]
}

// encodedCatalog is the whole-registry catalog of one generation as the
// HTTP API answers it: each record encoded, and the first page's body.
type encodedCatalog struct {
	generation uint64
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

// storedToolset is how the store persists a registration.
type storedToolset struct {
	Registration registry.Registration `json:"registration"`
}

// New returns a service. With WithDataDir it loads what an earlier service
// persisted there, checking every record as if it were published again.
func New(opts ...Option) (*Service, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, 8)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("registry service: %w", err)
	}
	s := &Service{
		opts:     o,
		instance: hex.EncodeToString(nonce),
		slots:    make(chan struct{}, o.maxInFlight),
		toolsets: make(map[string]*entry),
		calls:    make(map[string]*callState),
	}
	if o.dataDir == "" {
		return s, nil
	}
	d, snap, err := openDisk(o.dataDir)
	if err != nil {
		return nil, err
	}
	s.disk = d
	if err := s.restore(snap); err != nil {
		return nil, fmt.Errorf("registry store %s: %w", o.dataDir, err)
	}
	return s, nil
}

// restore loads a snapshot. The generation moves past the persisted one:
// a change acknowledged just before a crash may have written its
// registration but not the generation, and a consumer must never see one
// generation twice with different contents.
func (s *Service) restore(snap *snapshot) error {
	for _, st := range snap.toolsets {
		e, err := compileEntry(st.Registration, s.opts.schemaLimits)
		if err != nil {
			return err
		}
		s.toolsets[st.Registration.Toolset.Name] = e
	}
	for _, rec := range snap.calls {
		s.calls[rec.CallID] = &callState{rec: rec}
	}
	if err := s.sweepLocked(); err != nil {
		return err
	}
	s.generation = snap.generation + 1
	return s.disk.putGeneration(s.generation)
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
// outcome. The service must not be used afterwards.
func (s *Service) Close() error {
	s.wg.Wait()
	return nil
}

// Publish registers a toolset or replaces its registration; see
// registry.PublishRequest. The schemas are compiled and the fingerprint
// computed before anything changes; a rejected publish changes nothing.
func (s *Service) Publish(_ context.Context, req *registry.PublishRequest) (*registry.PublishResult, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if err := s.opts.rules.check(req.Toolset.Name, req.Endpoint); err != nil {
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
	if err := checkRecordSize(&registry.Registration{Toolset: ts, Fingerprint: fp, Revision: req.Revision, Token: token, Endpoint: req.Endpoint}); err != nil {
		return nil, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.toolsets[ts.Name]
	status := registry.Published
	if cur != nil {
		if cur.reg.Token == token {
			if cur.reg.Endpoint != req.Endpoint {
				return nil, registry.Errorf(registry.CodeRegistrationConflict, "toolset %q: revision %q with this fingerprint is registered with another endpoint; publish a new revision to move it", ts.Name, req.Revision)
			}
			return &registry.PublishResult{Status: registry.Unchanged, Registration: cloneRegistration(&cur.reg)}, nil
		}
		status = registry.Replaced
	}
	ts.RegisteredAt = s.opts.now().UTC().Round(0)
	e := &entry{
		reg:   registry.Registration{Toolset: ts, Fingerprint: fp, Revision: req.Revision, Token: token, Endpoint: req.Endpoint},
		specs: specs,
	}
	if s.disk != nil {
		// The generation goes first: if the registration then fails to be
		// written, a skipped generation number is harmless.
		if err := s.disk.putGeneration(s.generation + 1); err != nil {
			return nil, s.internal(fmt.Sprintf("publish toolset %q", ts.Name), err)
		}
		if err := s.disk.putToolset(&storedToolset{Registration: e.reg}); err != nil {
			return nil, s.internal(fmt.Sprintf("publish toolset %q", ts.Name), err)
		}
	}
	s.generation++
	s.toolsets[ts.Name] = e
	return &registry.PublishResult{Status: status, Registration: cloneRegistration(&e.reg)}, nil
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
// retried; recorded results stay.
func (s *Service) Withdraw(_ context.Context, req *registry.WithdrawRequest) error {
	if err := req.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.toolsets[req.Toolset]
	if cur == nil {
		return registry.Errorf(registry.CodeToolsetNotFound, "toolset %q is not registered", req.Toolset)
	}
	if cur.reg.Token != req.Token {
		return registry.Errorf(registry.CodeTokenMismatch, "toolset %q: token %s is not the current registration (revision %q)", req.Toolset, req.Token, cur.reg.Revision)
	}
	if s.disk != nil {
		if err := s.disk.putGeneration(s.generation + 1); err != nil {
			return s.internal(fmt.Sprintf("withdraw toolset %q", req.Toolset), err)
		}
		if err := s.disk.deleteToolset(req.Toolset); err != nil {
			return s.internal(fmt.Sprintf("withdraw toolset %q", req.Toolset), err)
		}
	}
	s.generation++
	delete(s.toolsets, req.Toolset)
	return nil
}

// ListToolsets reads every registered toolset, sorted by name.
func (s *Service) ListToolsets(context.Context) (*registry.Catalog, error) {
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
	if c := s.listJSON.Load(); c != nil && c.generation == s.generation {
		return c, nil
	}
	records, err := encodeRecords(s.catalogLocked().Toolsets)
	if err != nil {
		return nil, s.internal("encode catalog", err)
	}
	c := &encodedCatalog{
		generation: s.generation,
		etag:       fmt.Sprintf(`"%s-%d"`, s.instance, s.generation),
		records:    records,
	}
	c.first = pageBody(c.generation, records, 0, pageEnd(records, 0, s.opts.maxPage), cursor{instance: s.instance, generation: c.generation})
	s.listJSON.Store(c)
	return c, nil
}

// ResolveToolsets reads the named toolsets in request order, all or none.
func (s *Service) ResolveToolsets(_ context.Context, refs []registry.ToolsetRef) (*registry.Catalog, error) {
	req := registry.ResolveRequest{Toolsets: refs}
	if err := req.Validate(); err != nil {
		return nil, err
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
