package service

import "context"

// sweep forgets the calls whose last event (result, or admission for a
// call without one) is older than the call retention, at most once per
// tenth of it; see WithCallRetention. A call being forwarded is kept, and
// so is one whose result is held (unrecorded.go). A
// record the store fails to forget is kept, and the store's error returned.
func (s *Service) sweep(ctx context.Context) error {
	d := s.opts.callRetention
	if d == 0 {
		return nil
	}
	now := s.opts.now()
	s.sweepMu.Lock()
	if now.Sub(s.lastSweep) < d/10 {
		s.sweepMu.Unlock()
		return nil
	}
	s.lastSweep = now
	s.sweepMu.Unlock()
	s.callMu.Lock()
	running := make(map[string]bool, len(s.running)+len(s.unrecorded))
	for id := range s.running {
		running[id] = true
	}
	for id := range s.unrecorded {
		running[id] = true // ran, its result not recorded yet
	}
	s.callMu.Unlock()
	_, err := s.store.Forget(ctx, now.Add(-d), func(id string) bool { return running[id] })
	return err
}
