package service

// The claims this service holds on the calls it forwards (attempts.go),
// renewed together: one loop, running while the service holds a claim,
// renews every claim each claimRenew, so that a call costs no goroutine
// and no timer of its own, and the renewals of a tick reach the store at
// once. The loop also keeps the claims' health: a renewal the store failed
// (it could not be reached, or refused the write) or one that found a
// claim lapsed makes the service not ready (Ready) until a later renewal
// succeeds, or claimTTL passed, after which every claim that the failure
// concerned has lapsed; and it is counted (MetricClaimRenewals).

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Readiness reasons of a node that holds claims.
const (
	// ReasonClaimsNotRenewed: a renewal of a claim failed in the store.
	ReasonClaimsNotRenewed = "claims_not_renewed"
	// ReasonClaimsLost: a renewal found a claim of this service lapsed
	// (the service renewed it too late: starved of CPU, or cut from the
	// store longer than the claim lasts).
	ReasonClaimsLost = "claims_lost"
)

// claimSet is the claims a service holds, by call ID.
type claimSet struct {
	mu      sync.Mutex
	held    map[string]*heldClaim
	running bool // the renewal loop runs
	// trouble is the reason of the last renewal that went wrong, at
	// troubleAt, with its cause; "" once a renewal succeeded after it.
	trouble   string
	troubleAt time.Time
	cause     error
}

type heldClaim struct {
	fence   uint64
	renewed time.Time // when the claim was made or last renewed
	// ending: the provider answered or the call was not sent; the claim
	// ends with the store step that follows, and a renewal that finds it
	// gone says nothing of the service's health.
	ending bool
}

// holdClaim renews this service's claim fence of callID until the
// returned function is called. A renewal that fails lets the claim lapse:
// the fences then keep every other node from sending the call while this
// one may still be.
func (s *Service) holdClaim(callID string, fence uint64) (stop func()) {
	c := &s.claims
	c.mu.Lock()
	if c.held == nil {
		c.held = make(map[string]*heldClaim)
	}
	h := &heldClaim{fence: fence, renewed: time.Now()}
	c.held[callID] = h
	if !c.running {
		c.running = true
		go s.renewClaims()
	}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		if c.held[callID] == h {
			delete(c.held, callID)
		}
		c.mu.Unlock()
	}
}

// claimEnding marks this service's claim fence of callID as about to end
// (see heldClaim.ending).
func (s *Service) claimEnding(callID string, fence uint64) {
	c := &s.claims
	c.mu.Lock()
	if h := c.held[callID]; h != nil && h.fence == fence {
		h.ending = true
	}
	c.mu.Unlock()
}

// renewClaims renews the held claims every claimRenew, those made or
// renewed at least half a period ago, until none is held.
func (s *Service) renewClaims() {
	const period = claimRenew
	t := time.NewTicker(period)
	defer t.Stop()
	type due struct {
		callID string
		h      *heldClaim
	}
	for range t.C {
		c := &s.claims
		now := time.Now()
		c.mu.Lock()
		if len(c.held) == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		var batch []due
		for id, h := range c.held {
			if now.Sub(h.renewed) >= period/2 {
				batch = append(batch, due{id, h})
			}
		}
		c.mu.Unlock()
		// Concurrent renewals reach the store together; none outlasts
		// the period, so that a stalled store delays no later tick.
		ctx, cancel := context.WithTimeout(context.Background(), period)
		var wg sync.WaitGroup
		for _, d := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				held, err := s.store.Renew(ctx, d.callID, d.h.fence, claimTTL)
				s.renewed(d.callID, d.h, now, held, err)
			}()
		}
		wg.Wait()
		cancel()
	}
}

// renewed records the outcome of a renewal of h, the claim of callID,
// started at start.
func (s *Service) renewed(callID string, h *heldClaim, start time.Time, held bool, err error) {
	c := &s.claims
	c.mu.Lock()
	outcome := "ok"
	current := c.held[callID] == h && !h.ending
	switch {
	case err != nil:
		outcome = "failed"
		c.trouble, c.troubleAt, c.cause = ReasonClaimsNotRenewed, time.Now(), fmt.Errorf("renew the claim of call %q: %w", callID, err)
	case !held && current:
		// A lapsed claim is never current again: it is no longer renewed.
		outcome = "lost"
		delete(c.held, callID)
		c.trouble, c.troubleAt, c.cause = ReasonClaimsLost, time.Now(), fmt.Errorf("the claim of call %q lapsed before it was renewed", callID)
	case !held:
		c.mu.Unlock()
		return // ended meanwhile by the call's own store step
	default:
		h.renewed = start
		if c.trouble != "" && c.troubleAt.Before(start) {
			c.trouble, c.cause = "", nil
		}
	}
	c.mu.Unlock()
	if err != nil {
		s.countStoreError(err)
	}
	s.telemetry.claimRenewals.Add(context.Background(), 1, metric.WithAttributes(attribute.String("outcome", outcome)))
}

// claimState returns how many claims the service holds now, and the
// reason and cause of the renewal trouble that makes it not ready ("":
// none).
func (s *Service) claimState() (held int, reason string, cause error) {
	c := &s.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.trouble != "" && time.Since(c.troubleAt) >= claimTTL {
		c.trouble, c.cause = "", nil // every claim it concerned has lapsed
	}
	return len(c.held), c.trouble, c.cause
}
