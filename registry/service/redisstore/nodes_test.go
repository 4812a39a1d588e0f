package redisstore_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Two services on one miniredis are two nodes of one registry: a change
// acknowledged by one is what the other answers with next, without a
// retry, and a call is admitted and run once whichever node it reaches.
func TestNodesServeOneRegistry(t *testing.T) { eachRedis(t, testNodesServeOneRegistry) }

func testNodesServeOneRegistry(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	p := newProvider(t)
	a, b := newNode(t, rdb, name), newNode(t, rdb, name)

	r1 := publish(t, a, p, "notes", "1.0.0", "r1")
	cat, err := b.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
	if err != nil || cat.Toolsets[0].Token != r1.Token {
		t.Fatalf("resolve through the other node = %+v, %v; want token %s", cat, err, r1.Token)
	}
	list, err := b.ListToolsets(ctx)
	if err != nil || len(list.Toolsets) != 1 || list.Generation != 1 {
		t.Fatalf("list through the other node = %+v, %v; want notes at generation 1", list, err)
	}
	// Publishing the same content through the other node changes nothing.
	res, err := b.Publish(ctx, &registry.PublishRequest{Toolset: notesToolset("notes", "1.0.0"), Revision: "r1", Endpoint: p.url})
	if err != nil || res.Status != registry.Unchanged {
		t.Fatalf("same publish through the other node = %+v, %v; want unchanged", res, err)
	}

	// A call admitted through a and retried through b runs once.
	first, err := a.CallResolvedTool(ctx, get("c1", "notes", r1.Token, "x"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := b.CallResolvedTool(ctx, get("c1", "notes", r1.Token, "x"))
	if err != nil || string(again.Result) != string(first.Result) || !again.CompletedAt.Equal(first.CompletedAt) {
		t.Fatalf("retry through the other node = %+v, %v; want %+v", again, err, first)
	}
	if n := p.executions("c1"); n != 1 {
		t.Fatalf("c1 ran %d times, want 1", n)
	}

	// b replaces the registration; a fences new calls under r1 and
	// conflicts a retry that differs from its admission.
	r2 := publish(t, b, p, "notes", "2.0.0", "r2")
	_, err = a.CallResolvedTool(ctx, get("c2", "notes", r1.Token, "x"))
	wantCode(t, err, registry.CodeCallNotAdmitted)
	_, err = a.CallResolvedTool(ctx, get("c1", "notes", r2.Token, "x"))
	wantCode(t, err, registry.CodeAdmissionConflict)
	cat, err = a.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
	if err != nil || cat.Toolsets[0].Token != r2.Token {
		t.Fatalf("resolve through a after b replaced = %+v, %v; want token %s", cat, err, r2.Token)
	}
	// b withdraws; a no longer resolves it.
	if err := b.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "notes", Token: r2.Token}); err != nil {
		t.Fatal(err)
	}
	_, err = a.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
	wantCode(t, err, registry.CodeToolsetNotFound)
	err = a.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "notes", Token: r2.Token})
	wantCode(t, err, registry.CodeToolsetNotFound)
}

// A call pending on one node (its provider has not answered) that reaches
// another node waits there for the result rather than running again.
func TestPendingCallOnAnotherNode(t *testing.T) { eachRedis(t, testPendingCallOnAnotherNode) }

func testPendingCallOnAnotherNode(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	p := newProvider(t)
	gate := make(chan struct{})
	p.gate = gate
	a, b := newNode(t, rdb, name), newNode(t, rdb, name)
	r := publish(t, a, p, "notes", "1.0.0", "r1")

	results := make([]*registry.CallResult, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, node := range []*service.Service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = node.CallResolvedTool(ctx, get("c", "notes", r.Token, "x"))
		}()
		// b is called once a's forwarding reached the provider.
		for i == 0 && p.total.Load() == 0 {
			waitABit()
		}
	}
	waitABit()
	close(gate)
	wg.Wait()
	if n := p.executions("c"); n != 1 {
		t.Fatalf("the call ran %d times, want 1", n)
	}
	if errs[0] != nil {
		t.Fatalf("node a, which sent the call: %v", errs[0])
	}
	// A claim lapses by Redis's clock (miniredis's TIME is the wall clock
	// too): a node starved of CPU for the claim's 3 s lets it lapse, and b
	// then answers that the call's outcome is unknown, never sending it
	// again (the lapse itself is tested deterministically by
	// TestClaimLapsedWhileTheProviderRuns).
	if errs[1] != nil && errors.Is(errs[1], registry.ErrCallOutcomeUnknown) {
		t.Logf("node b: a's claim lapsed: %v", errs[1])
		return
	}
	if errs[1] != nil {
		t.Fatalf("node b: %v", errs[1])
	}
	if string(results[0].Result) != string(results[1].Result) {
		t.Fatalf("results differ: %s and %s", results[0].Result, results[1].Result)
	}
}

// A node's claim of a call lapses while the provider runs the call (the
// node was starved of CPU and renewed too late; the test removes the claim
// as its expiry does). The call reaching another node is never sent again:
// that node answers call_outcome_unknown at once. The first node, which
// sent the call, still records its result, which every later retry gets,
// through either node. The provider runs the call once.
func TestClaimLapsedWhileTheProviderRuns(t *testing.T) {
	eachRedis(t, testClaimLapsedWhileTheProviderRuns)
}

func testClaimLapsedWhileTheProviderRuns(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	p := newProvider(t)
	gate := make(chan struct{})
	p.gate = gate
	a, b := newNode(t, rdb, name), newNode(t, rdb, name)
	var open sync.Once
	t.Cleanup(func() { open.Do(func() { close(gate) }) }) // before the nodes close
	r := publish(t, a, p, "notes", "1.0.0", "r1")

	type answer struct {
		res *registry.CallResult
		err error
	}
	call := func(node *service.Service) <-chan answer {
		out := make(chan answer, 1)
		go func() {
			res, err := node.CallResolvedTool(ctx, get("c", "notes", r.Token, "x"))
			out <- answer{res, err}
		}()
		return out
	}
	first := call(a)
	for p.total.Load() == 0 {
		waitABit()
	}
	if err := rdb.HDel(ctx, "goa-discovery:{"+name+"}:call:c", "claim").Err(); err != nil {
		t.Fatal(err)
	}
	second := call(b)
	var got answer
	for done := false; !done; {
		select {
		case got = <-second:
			done = true
		default:
			if p.total.Load() > 1 {
				t.Fatalf("node b sent the call again after a's claim lapsed: the provider ran it %d times", p.executions("c"))
			}
			waitABit()
		}
	}
	wantCode(t, got.err, registry.CodeCallOutcomeUnknown)
	open.Do(func() { close(gate) })
	sent := <-first
	if sent.err != nil {
		t.Fatalf("node a, which sent the call: %v", sent.err)
	}
	for i, node := range []*service.Service{a, b} {
		again := <-call(node)
		if again.err != nil || string(again.res.Result) != string(sent.res.Result) {
			t.Fatalf("retry through node %d = %+v, %v; want a's result %s", i, again.res, again.err, sent.res.Result)
		}
	}
	if n := p.executions("c"); n != 1 {
		t.Fatalf("the call ran %d times, want 1", n)
	}
}

// With Redis down every request fails explicitly, retryable; once Redis
// is back, what was acknowledged is there.
func TestRedisDownFailsExplicitly(t *testing.T) {
	ctx := context.Background()
	m, rdb := newMini(t)
	p := newProvider(t)
	a := newNode(t, rdb, "reg")
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	client, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	r := publish(t, client, p, "notes", "1.0.0", "r1")
	addr := m.Addr()
	m.Close()
	checks := []struct {
		name string
		do   func() error
	}{
		{"list", func() error { _, err := client.ListToolsets(ctx); return err }},
		{"resolve", func() error {
			_, err := client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
			return err
		}},
		{"publish", func() error {
			_, err := client.Publish(ctx, &registry.PublishRequest{Toolset: notesToolset("other", "1"), Revision: "r", Endpoint: p.url})
			return err
		}},
		{"call", func() error { _, err := client.CallResolvedTool(ctx, get("c", "notes", r.Token, "x")); return err }},
	}
	for _, c := range checks {
		err := c.do()
		var e *registry.Error
		if !errors.As(err, &e) || e.Code != registry.CodeOverloaded || e.RetryAfter == 0 {
			t.Fatalf("%s with Redis down: %v; want overloaded with a retry hint", c.name, err)
		}
		// The answer names what failed, never where the store is.
		if strings.Contains(e.Message, addr) {
			t.Fatalf("%s with Redis down: message %q names the store's address", c.name, e.Message)
		}
	}
	if err := m.StartAddr(addr); err != nil {
		t.Fatal(err)
	}
	cat, err := client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
	if err != nil || cat.Toolsets[0].Token != r.Token {
		t.Fatalf("resolve after Redis came back = %+v, %v", cat, err)
	}
}

// A call whose provider gives no answer (the forward times out while the
// provider still holds it) may have run: the node answers
// call_outcome_unknown, and no retry through any node sends it again. A
// call whose provider answered with a failure (overloaded) did not run: a
// retry sends it again and gets its result.
func TestCallsSentAgainOnlyAfterAnAnswer(t *testing.T) {
	eachRedis(t, testCallsSentAgainOnlyAfterAnAnswer)
}

func testCallsSentAgainOnlyAfterAnAnswer(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	p := newProvider(t)
	gate := make(chan struct{})
	var open sync.Once
	a := newNode(t, rdb, name, service.WithForwardTimeout(100*time.Millisecond))
	b := newNode(t, rdb, name)
	t.Cleanup(func() { open.Do(func() { close(gate) }) }) // before the nodes close
	r := publish(t, a, p, "notes", "1.0.0", "r1")

	p.mu.Lock()
	p.gate = gate
	p.mu.Unlock()
	_, err := a.CallResolvedTool(ctx, get("held", "notes", r.Token, "x"))
	wantCode(t, err, registry.CodeCallOutcomeUnknown)
	for i, node := range []*service.Service{a, b} {
		_, err := node.CallResolvedTool(ctx, get("held", "notes", r.Token, "x"))
		if !errors.Is(err, registry.ErrCallOutcomeUnknown) {
			t.Fatalf("retry %d of the unanswered call: %v; want call_outcome_unknown", i, err)
		}
	}
	if n := p.executions("held"); n != 1 {
		t.Fatalf("the unanswered call ran %d times, want 1", n)
	}
	open.Do(func() { close(gate) })

	p.busy.Store(1)
	_, err = a.CallResolvedTool(ctx, get("busy", "notes", r.Token, "y"))
	wantCode(t, err, registry.CodeOverloaded)
	res, err := b.CallResolvedTool(ctx, get("busy", "notes", r.Token, "y"))
	if err != nil || string(res.Result) != `{"text":"note y"}` {
		t.Fatalf("retry after the provider answered overloaded = %+v, %v; want its result", res, err)
	}
	if n := p.executions("busy"); n != 1 {
		t.Fatalf("the call ran %d times, want 1", n)
	}
}
