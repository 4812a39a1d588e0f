package service

import (
	"fmt"
	"time"
)

// sweepLocked forgets the calls whose last event (result, or admission for
// a call without one) is older than the call retention, at most once per
// tenth of it; see WithCallRetention. A call being forwarded is kept. A record
// whose file cannot be removed is kept, and the failure reported, so that
// memory and store never disagree. s.callMu must be held.
func (s *Service) sweepLocked() error {
	d := s.opts.callRetention
	if d == 0 {
		return nil
	}
	now := s.opts.now()
	if now.Sub(s.lastSweep) < d/10 {
		return nil
	}
	s.lastSweep = now
	for id, c := range s.calls {
		if c.running != nil || !expired(&c.rec, now, d) {
			continue
		}
		if s.disk != nil {
			if err := s.disk.deleteCall(id); err != nil {
				return s.internal(fmt.Sprintf("forget call %q", id), err)
			}
		}
		delete(s.calls, id)
	}
	return nil
}

func expired(rec *callRecord, now time.Time, retention time.Duration) bool {
	last := rec.AdmittedAt
	if rec.Result != nil {
		last = rec.Result.CompletedAt
	}
	return now.Sub(last) > retention
}
