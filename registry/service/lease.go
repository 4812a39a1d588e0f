package service

// Provider leases (see registry.RenewRequest). With WithProviderLease(d), a
// registration is live until d after it was registered, or until the lease
// its provider last renewed, whichever is later. A service caches the
// leases it read: a lease only moves later while its registration stays,
// so a cached lease that has not lapsed is current, and the store is read
// again only when it has.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
)

// WithProviderLease makes providers keep their registrations alive by
// renewing a lease of d (registry.KeepLease); a registration whose lease
// lapsed is reported registry.ErrLeaseExpired on resolution and calls. It
// needs a store that keeps leases (StoreTraits.Leases), such as the Redis
// store.
// Zero, the default, grants no leases: registrations live until withdrawn.
func WithProviderLease(d time.Duration) Option { return func(o *options) { o.providerLease = d } }

// leaseCache holds the leases a service read, by toolset.
type leaseCache struct {
	mu   sync.Mutex
	seen map[string]leaseSeen
}

type leaseSeen struct {
	token registry.Token
	until time.Time
}

// checkLeases checks the lease option against the store.
func (s *Service) checkLeases() error {
	switch d := s.opts.providerLease; {
	case d < 0:
		return fmt.Errorf("registry service: provider lease %v is negative", d)
	case d == 0:
		return nil
	}
	if s.store == nil || !s.store.Traits().Leases { // nil: the embedded store, opened later
		return fmt.Errorf("registry service: WithProviderLease needs a store that keeps leases, such as the Redis store")
	}
	return nil
}

// live returns nil when the provider of e holds a lease now, an error with
// registry.CodeLeaseExpired when it lapsed.
func (s *Service) live(ctx context.Context, e *entry) error {
	d := s.opts.providerLease
	if d == 0 {
		return nil
	}
	now := s.opts.now()
	name := e.reg.Toolset.Name
	until := e.reg.Toolset.RegisteredAt.Add(d)
	if now.Before(until) {
		return nil
	}
	s.leases.mu.Lock()
	seen, ok := s.leases.seen[name]
	s.leases.mu.Unlock()
	if ok && seen.token == e.reg.Token && now.Before(seen.until) {
		return nil
	}
	renewed, err := s.store.Lease(ctx, name)
	if err != nil {
		return s.storeError(fmt.Sprintf("read the lease of toolset %q", name), err)
	}
	if renewed.After(until) {
		until = renewed
	}
	s.leases.mu.Lock()
	if s.leases.seen == nil {
		s.leases.seen = make(map[string]leaseSeen)
	}
	s.leases.seen[name] = leaseSeen{token: e.reg.Token, until: until}
	s.leases.mu.Unlock()
	if now.Before(until) {
		return nil
	}
	return registry.Errorf(registry.CodeLeaseExpired, "toolset %q (revision %q): its provider's lease expired at %s and was not renewed", name, e.reg.Revision, until.UTC().Format(time.RFC3339Nano))
}

// Renew renews the lease of a toolset's current registration for the
// service's provider lease; see registry.RenewRequest.
func (s *Service) Renew(ctx context.Context, req *registry.RenewRequest) (*registry.Lease, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	d := s.opts.providerLease
	if d == 0 {
		return nil, registry.Errorf(registry.CodeInvalidRequest, "toolset %q: this registry grants no leases", req.Toolset)
	}
	if err := s.current(ctx); err != nil {
		return nil, err
	}
	for rechecked := false; ; {
		if err := retrying(ctx, fmt.Sprintf("renew the lease of toolset %q", req.Toolset)); err != nil {
			return nil, err
		}
		e := s.registration(req.Toolset)
		if (e == nil || e.reg.Token != req.Token) && !rechecked {
			if err := s.recheck(ctx); err != nil {
				return nil, err
			}
			rechecked = true
			continue
		}
		switch {
		case e == nil:
			return nil, registry.Errorf(registry.CodeToolsetNotFound, "toolset %q is not registered", req.Toolset)
		case e.reg.Token != req.Token:
			return nil, registry.Errorf(registry.CodeTokenMismatch, "toolset %q: token %s is not the current registration (revision %q)", req.Toolset, req.Token, e.reg.Revision)
		}
		until := s.opts.now().UTC().Round(0).Add(d)
		err := s.store.RenewLease(ctx, req.Toolset, req.Token, until)
		if errors.Is(err, ErrStale) {
			if err := s.refresh(ctx, nil); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, s.storeError(fmt.Sprintf("renew the lease of toolset %q", req.Toolset), err)
		}
		return &registry.Lease{Toolset: req.Toolset, Token: req.Token, ExpiresAt: until}, nil
	}
}

func (s *Service) handleRenew(w http.ResponseWriter, r *http.Request) {
	var req registry.RenewRequest
	// A renewal is its provider's act: it needs the publish scope of the
	// toolset, as publishing and withdrawing it do.
	if !s.decode(w, r, &req) || !s.authorize(w, r, access.Publish, req.Toolset) {
		return
	}
	lease, err := s.Renew(r.Context(), &req)
	if err != nil {
		registry.WriteError(w, err)
		return
	}
	registry.WriteJSON(w, http.StatusOK, lease)
}
