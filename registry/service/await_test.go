package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// polledStore is a store that tells polled of each read of a call's
// attempt: a service polls it while another one forwards the call.
type polledStore struct {
	service.Store
	polled chan string
}

func (s *polledStore) Attempt(ctx context.Context, callID string) (service.AttemptState, error) {
	select {
	case s.polled <- callID:
	default:
	}
	return s.Store.Attempt(ctx, callID)
}

// TestAwaitEndsWithItsRequest: service a forwards a call to a provider
// that does not answer; the same call reaches service b, which shares the
// store, and waits for a's attempt by polling the store. Once b's request
// is gone, b stops polling: it closes while a's call still runs. On the
// code before, b polled until a's attempt ended, whatever became of the
// request (for ever, with a provider that never answers).
func TestAwaitEndsWithItsRequest(t *testing.T) {
	st := &polledStore{Store: memoryStore(), polled: make(chan string, 1)}
	p := newProvider(t)
	running, gate := make(chan struct{}, 1), make(chan struct{})
	var open sync.Once
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		running <- struct{}{}
		<-gate
		return json.RawMessage(`{"name":"late"}`), nil
	})
	node := func() *service.Service {
		svc, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { open.Do(func() { close(gate) }); _ = svc.Close() })
		return svc
	}
	a := node()
	reg := publish(t, a, p, "1.0.0", "r1")
	b := node() // it reads the registration a made
	go func() { _, _ = a.CallResolvedTool(context.Background(), lookup("c1", reg.Token, "x")) }()
	<-running

	ctx, cancel := context.WithCancel(context.Background())
	answered := make(chan error, 1)
	go func() {
		_, err := b.CallResolvedTool(ctx, lookup("c1", reg.Token, "x"))
		answered <- err
	}()
	select {
	case id := <-st.polled:
		if id != "c1" {
			t.Fatalf("b polled call %q, want c1", id)
		}
	case err := <-answered:
		t.Fatalf("b answered before it waited for a's attempt: %v", err)
	}
	cancel()
	if err := <-answered; !errors.Is(err, context.Canceled) {
		t.Fatalf("b's call after its request was cancelled = %v; want context.Canceled", err)
	}
	closed := make(chan struct{})
	go func() { _ = b.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("b still polls the store for a call whose request is gone: its Close waits for a's attempt")
	}
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("the provider ran the call %d times, want 1", n)
	}
}
