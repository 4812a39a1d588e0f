package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// A node claims a call and is held just before it hands the call over (a
// node starved of CPU there), while its claim lapses (the test removes it,
// as its expiry does) and another node claims the call and sends it. The
// first node, let go while the provider runs the call, cannot hand the call
// over under its lapsed claim: it waits for the other node's attempt and
// answers with its result. The provider runs the call once.
func TestClaimLapsedBeforeTheHandOver(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	paused, resume, handedOver := make(chan string, 1), make(chan struct{}), make(chan error, 1)
	var once sync.Once
	hook := func(callID string) func(error) {
		held := false
		once.Do(func() { held = true })
		if !held {
			return func(error) {}
		}
		paused <- callID
		<-resume
		return func(err error) { handedOver <- err }
	}
	node := func(wrap func(service.Store) service.Store) *service.Service {
		st, err := redisstore.New(rdb, "reg")
		if err != nil {
			t.Fatal(err)
		}
		svc, err := service.New(service.WithStore(wrap(st)), service.WithInsecure())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = svc.Close() })
		return svc
	}
	a := node(func(st service.Store) service.Store { return &heldHandOver{Store: st, hook: hook} })
	b := node(func(st service.Store) service.Store { return st })
	p := newProvider(t)
	gate := make(chan struct{})
	var open sync.Once
	t.Cleanup(func() { open.Do(func() { close(gate) }) }) // before the nodes close
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		<-gate
		return json.RawMessage(`{"name":"record 7"}`), nil
	})
	reg := publish(t, a, p, "1.0.0", "r1")

	type answer struct {
		res *registry.CallResult
		err error
	}
	call := func(svc *service.Service) <-chan answer {
		out := make(chan answer, 1)
		go func() {
			res, err := svc.CallResolvedTool(ctx, lookup("c", reg.Token, "7"))
			out <- answer{res, err}
		}()
		return out
	}
	first := call(a)
	if id := <-paused; id != "c" {
		t.Fatalf("held call %q, want c", id)
	}
	m.HDel("goa-discovery:{reg}:call:c", "claim")
	second := call(b)
	for p.executions.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	close(resume)
	if err := <-handedOver; !errors.Is(err, service.ErrClaimLost) {
		t.Fatalf("node a handed the call over under its lapsed claim: %v; want ErrClaimLost", err)
	}
	open.Do(func() { close(gate) })
	sent, got := <-second, <-first
	if sent.err != nil {
		t.Fatalf("node b, which claimed the lapsed call: %v", sent.err)
	}
	if got.err != nil || string(got.res.Result) != string(sent.res.Result) {
		t.Fatalf("node a after its claim lapsed = %+v, %v; want b's result %s", got.res, got.err, sent.res.Result)
	}
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("the call ran %d times, want 1", n)
	}
}

// heldHandOver is a store whose hand-overs run hook first, and the function
// hook returns with the hand-over's outcome (nil: the call is being sent).
// It admits a new call without claiming it, as AdmitAndHandOver does when a
// forgotten call's claim is in the way, so that its service claims the
// call and hands it over in two steps.
type heldHandOver struct {
	service.Store
	hook func(callID string) func(error)
}

func (s *heldHandOver) AdmitAndHandOver(ctx context.Context, rec *service.CallRecord, _ string, _ time.Duration) (*service.CallRecord, bool, uint64, error) {
	stored, isNew, err := s.Store.Admit(ctx, rec)
	return stored, isNew, 0, err
}

func (s *heldHandOver) HandOver(ctx context.Context, callID string, fence uint64) error {
	done := s.hook(callID)
	err := s.Store.HandOver(ctx, callID, fence)
	done(err)
	return err
}
