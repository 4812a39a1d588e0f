package service

import "context"

// sweep forgets the calls whose last event (result, or admission for a
// call without one) is older than the call retention, at most once per
// tenth of it; see WithCallRetention. A call being forwarded is kept. A
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
	running := make(map[string]bool, len(s.running))
	for id := range s.running {
		running[id] = true
	}
	s.callMu.Unlock()
	_, err := s.store.Forget(ctx, now.Add(-d), func(id string) bool { return running[id] })
	return err
}
