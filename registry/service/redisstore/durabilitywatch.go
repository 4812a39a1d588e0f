package redisstore

// Re-checking Redis's persistence settings while the store runs: an
// operator's CONFIG SET (or a Redis restarted, or a failover to a server
// with other settings) changes them without the nodes being restarted, and
// MetricStoreDurable must follow.

import (
	"context"
	"slices"
	"time"
)

// WatchDurability runs CheckDurability now and then every interval until
// the store is closed, and calls report with what it returned the first
// time and whenever the result differs from the check before (another
// set of weaknesses, or an error that appeared or went away). The first
// report is made before WatchDurability returns; the later ones on a
// goroutine of the store. Each check bounds its CONFIG GET by interval.
func (s *Store) WatchDurability(ctx context.Context, interval time.Duration, report func(weak []Weakness, err error)) {
	weak, err := s.CheckDurability(ctx)
	report(weak, err)
	s.mu.Lock()
	if s.durabilityStop != nil {
		s.mu.Unlock()
		return // watched already: one watch per store
	}
	stop := make(chan struct{})
	s.durabilityStop = stop
	s.mu.Unlock()
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			cctx, cancel := context.WithTimeout(context.Background(), interval)
			w, e := s.CheckDurability(cctx)
			cancel()
			if !slices.Equal(w, weak) || (e == nil) != (err == nil) {
				report(w, e)
			}
			weak, err = w, e
		}
	}()
}

// stopDurabilityWatch ends the goroutine of WatchDurability, if any.
func (s *Store) stopDurabilityWatch() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.durabilityStop != nil {
		close(s.durabilityStop)
		s.durabilityStop = nil
	}
}
