package service

// Operator routes: what a registry holds, for "goa-discovery-registry ls",
// "show" and "calls". They need the inspect scope and answer what
// consumers never see (providers' endpoints, leases, the admitted calls),
// but never a registration token, a payload or a result.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// PathRegistrations lists the registrations as operators see them (GET,
// scope inspect; the "toolset" query parameter keeps one). GET
// registry.PathCalls lists the admitted calls ("pending=true" keeps those
// without a result, "limit" bounds them, DefaultCallsLimit by default).
const PathRegistrations = "/v1/registrations"

// DefaultCallsLimit and MaxCallsLimit bound the calls one answer lists.
const (
	DefaultCallsLimit = 100
	MaxCallsLimit     = 10000
)

// Lease states of a registration.
const (
	// LeaseNone: the service grants no leases (WithProviderLease unset);
	// the registration lives until withdrawn.
	LeaseNone = "none"
	// LeaseLive: the provider's lease runs until LeaseUntil.
	LeaseLive = "live"
	// LeaseExpired: the lease lapsed at LeaseUntil; the tools are
	// reported lease_expired.
	LeaseExpired = "expired"
)

// RegistrationInfo is a registration as operators see it.
type RegistrationInfo struct {
	// Toolset is the registered record, with its tools' schemas.
	Toolset tools.ToolsetSchema `json:"toolset"`
	// Fingerprint is the fingerprint of Toolset.
	Fingerprint tools.Fingerprint `json:"fingerprint"`
	// Revision is the provider's revision.
	Revision string `json:"revision"`
	// Endpoint is where calls are forwarded.
	Endpoint string `json:"endpoint"`
	// Lease is LeaseNone, LeaseLive or LeaseExpired.
	Lease string `json:"lease"`
	// LeaseUntil is when the lease lapses or lapsed; zero with LeaseNone.
	LeaseUntil time.Time `json:"lease_until,omitzero"`
}

// Registrations is the answer of PathRegistrations.
type Registrations struct {
	// Generation is the registry's generation read.
	Generation uint64 `json:"generation"`
	// Registrations are sorted by toolset name.
	Registrations []RegistrationInfo `json:"registrations"`
}

// CallInfo is an admitted call as operators see it.
type CallInfo struct {
	CallID string      `json:"call_id"`
	Tool   tools.Ident `json:"tool"`
	// Revision is the registration's revision at admission.
	Revision   string    `json:"revision"`
	AdmittedAt time.Time `json:"admitted_at"`
	// State is "pending" (no result yet), "outcome_unknown" (sent to its
	// provider, no result recorded and no node sending it: never sent
	// again, see attempts.go), "done" or "tool_error" (the provider
	// answered that the tool failed).
	State       string    `json:"state"`
	CompletedAt time.Time `json:"completed_at,omitzero"`
}

// Calls is the answer of GET registry.PathCalls.
type Calls struct {
	// Calls are the latest event (admission or result) first.
	Calls []CallInfo `json:"calls"`
	// Truncated says more calls matched than the limit.
	Truncated bool `json:"truncated,omitempty"`
}

// Inspect returns the registrations as operators see them, of one toolset
// when toolset is not empty (a missing one is registry.ErrNotFound).
func (s *Service) Inspect(ctx context.Context, toolset string) (*Registrations, error) {
	if err := s.current(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	gen := s.generation
	entries := make([]*entry, 0, len(s.toolsets))
	for name, e := range s.toolsets {
		if toolset == "" || name == toolset {
			entries = append(entries, e)
		}
	}
	s.mu.RUnlock()
	if toolset != "" && len(entries) == 0 {
		return nil, registry.Errorf(registry.CodeToolsetNotFound, "toolset %q is not registered", toolset)
	}
	slices.SortFunc(entries, func(a, b *entry) int { return cmpString(a.reg.Toolset.Name, b.reg.Toolset.Name) })
	out := &Registrations{Generation: gen, Registrations: make([]RegistrationInfo, len(entries))}
	for i, e := range entries {
		info := RegistrationInfo{Toolset: e.reg.Toolset, Fingerprint: e.reg.Fingerprint, Revision: e.reg.Revision, Endpoint: e.reg.Endpoint, Lease: LeaseNone}
		if d := s.opts.providerLease; d > 0 {
			until := e.reg.Toolset.RegisteredAt.Add(d)
			renewed, err := s.store.Lease(ctx, e.reg.Toolset.Name)
			if err != nil {
				return nil, s.storeError(fmt.Sprintf("read the lease of toolset %q", e.reg.Toolset.Name), err)
			}
			if renewed.After(until) {
				until = renewed
			}
			info.LeaseUntil, info.Lease = until.UTC(), LeaseLive
			if !s.opts.now().Before(until) {
				info.Lease = LeaseExpired
			}
		}
		out.Registrations[i] = info
	}
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ListCalls returns up to limit admitted calls, the latest event first;
// see Store.ListCalls.
func (s *Service) ListCalls(ctx context.Context, pending bool, limit int) (*Calls, error) {
	if limit <= 0 || limit > MaxCallsLimit {
		return nil, registry.Errorf(registry.CodeInvalidRequest, "limit %d is not between 1 and %d", limit, MaxCallsLimit)
	}
	recs, more, err := s.store.ListCalls(ctx, pending, limit)
	if err != nil {
		return nil, s.storeError("list calls", err)
	}
	out := &Calls{Calls: make([]CallInfo, len(recs)), Truncated: more}
	for i, r := range recs {
		c := CallInfo{CallID: r.CallID, Tool: r.Tool, Revision: r.Revision, AdmittedAt: r.AdmittedAt.UTC(), State: "pending"}
		if r.Result == nil {
			state, err := s.store.Attempt(ctx, r.CallID)
			if err != nil {
				return nil, s.storeError(fmt.Sprintf("read the attempt of call %q", r.CallID), err)
			}
			if state == AttemptLost {
				c.State = "outcome_unknown"
			}
		}
		if r.Result != nil {
			c.State, c.CompletedAt = "done", r.Result.CompletedAt.UTC()
			if r.Result.ToolError != "" {
				c.State = "tool_error"
			}
		}
		out.Calls[i] = c
	}
	return out, nil
}

func (s *Service) handleRegistrations(w http.ResponseWriter, r *http.Request) {
	if !s.authorize(w, r, access.Inspect, "") {
		return
	}
	res, err := s.Inspect(r.Context(), r.URL.Query().Get("toolset"))
	if err != nil {
		registry.WriteError(w, err)
		return
	}
	registry.WriteJSON(w, http.StatusOK, res)
}

func (s *Service) handleListCalls(w http.ResponseWriter, r *http.Request) {
	if !s.authorize(w, r, access.Inspect, "") {
		return
	}
	q := r.URL.Query()
	pending := false
	if v := q.Get("pending"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			registry.WriteError(w, registry.Errorf(registry.CodeInvalidRequest, "pending %q is not a boolean", v))
			return
		}
		pending = b
	}
	limit := DefaultCallsLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			registry.WriteError(w, registry.Errorf(registry.CodeInvalidRequest, "limit %q is not a number", v))
			return
		}
		limit = n
	}
	res, err := s.ListCalls(r.Context(), pending, limit)
	if err != nil {
		registry.WriteError(w, err)
		return
	}
	registry.WriteJSON(w, http.StatusOK, res)
}
