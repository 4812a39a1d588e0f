package service

// Bounded readiness reads. A readiness check must answer within its
// timeout whatever the store does: a Redis that accepts connections and
// never answers (frozen, or behind a partition that drops packets) holds a
// read until the client's own read timeout and retries end, seconds past
// ReadyTimeout. So the check waits for the read at most ReadyTimeout and
// answers store_unreachable then; the read goes on in the background, and
// checks that arrive meanwhile wait for that same read rather than start
// another, so probes every second cannot pile reads up on a frozen store.

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// generationProbe reads a shared store's generation for readiness checks,
// one read at a time.
type generationProbe struct {
	mu  sync.Mutex
	cur *generationRead // the read under way; nil: none
}

// generationRead is one read of the generation; done is closed when err is
// set.
type generationRead struct {
	done chan struct{}
	err  error
}

// read returns nil when st answered a read of its generation within
// timeout, else why not; a timeout matches ErrUnavailable.
func (p *generationProbe) read(ctx context.Context, st Store, timeout time.Duration) error {
	p.mu.Lock()
	r := p.cur
	if r == nil {
		r = &generationRead{done: make(chan struct{})}
		p.cur = r
		go func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
			_, err := st.Generation(rctx)
			cancel()
			p.mu.Lock()
			r.err, p.cur = err, nil
			p.mu.Unlock()
			close(r.done)
		}()
	}
	p.mu.Unlock()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-r.done:
		return r.err
	case <-t.C:
		return fmt.Errorf("%w: no answer to a read of the generation within %v", ErrUnavailable, timeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}
