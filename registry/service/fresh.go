package service

import (
	"context"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// recheck reads a shared store's registrations again before a refusal. A
// shared store may let a service answer from registrations a bounded time
// old (its Generation may be a cached one, such as the Redis store's
// generation watch); a refusal (a toolset not registered, a token or
// version not current, a publish found unchanged) is decided on a fresh
// read instead, so that no node refuses what another node acknowledged
// and the store still holds (a store that lost changes: shared.go).
func (s *Service) recheck(ctx context.Context) error {
	if !s.store.Traits().Shared {
		return nil
	}
	return s.refresh(ctx, nil)
}

// resolvable reports whether the installed registrations have every
// toolset of refs at its pinned version.
func (s *Service) resolvable(refs []registry.ToolsetRef) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, ref := range refs {
		e := s.toolsets[ref.Name]
		if e == nil || ref.Version != "" && ref.Version != e.reg.Toolset.Version {
			return false
		}
	}
	return true
}
