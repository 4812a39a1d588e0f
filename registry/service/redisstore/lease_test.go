package redisstore_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// clock is a test double for the service clock, advanced by the test.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// A toolset whose provider stopped renewing is still listed, but resolving
// it or calling its tools fails with lease_expired, through every node,
// until the provider renews.
func TestLeases(t *testing.T) {
	ctx := context.Background()
	_, rdb := newMini(t)
	p := newProvider(t)
	clk := &clock{now: epoch}
	opts := []service.Option{service.WithProviderLease(10 * time.Second), service.WithClock(clk.Now)}
	a, b := newNode(t, rdb, "reg", opts...), newNode(t, rdb, "reg", opts...)
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	provider, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	r := publish(t, provider, p, "notes", "1", "r1")
	refs := []registry.ToolsetRef{{Name: "notes"}}
	resolve := func() error { _, err := b.ResolveToolsets(ctx, refs); return err }
	call := func(id string) error { _, err := a.CallResolvedTool(ctx, get(id, "notes", r.Token, "x")); return err }
	renew := func(token registry.Token) error {
		_, err := provider.Renew(ctx, &registry.RenewRequest{Toolset: "notes", Token: token})
		return err
	}
	steps := []struct {
		name    string
		advance time.Duration
		do      func() error
		want    registry.Code // "" for success
	}{
		{"resolve within the first lease", 9 * time.Second, resolve, ""},
		{"call within the first lease", 0, func() error { return call("c1") }, ""},
		{"resolve after it lapsed", 2 * time.Second, resolve, registry.CodeLeaseExpired},
		{"call after it lapsed", 0, func() error { return call("c2") }, registry.CodeLeaseExpired},
		{"renew with another token", 0, func() error { return renew(registry.NewToken(r.Fingerprint, "other")) }, registry.CodeTokenMismatch},
		{"renew", 0, func() error { return renew(r.Token) }, ""},
		{"resolve after renewal", 9 * time.Second, resolve, ""},
		{"call after renewal", 0, func() error { return call("c3") }, ""},
		{"resolve after the renewal lapsed", 2 * time.Second, resolve, registry.CodeLeaseExpired},
	}
	for _, s := range steps {
		clk.Advance(s.advance)
		err := s.do()
		if s.want == "" {
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			continue
		}
		wantCode(t, err, s.want)
	}
	// Not dropped: the catalog still lists it.
	list, err := b.ListToolsets(ctx)
	if err != nil || len(list.Toolsets) != 1 {
		t.Fatalf("list with the lease lapsed = %+v, %v; want notes listed", list, err)
	}
	// A new registration has a lease of its own.
	r2 := publish(t, provider, p, "notes", "2", "r2")
	if _, err := b.ResolveToolsets(ctx, refs); err != nil {
		t.Fatalf("resolve a new registration: %v", err)
	}
	if err := renew(r.Token); err == nil {
		t.Fatal("the replaced registration's lease was renewed")
	}
	if err := renew(r2.Token); err != nil {
		t.Fatal(err)
	}
}

// A call admitted under a live lease that is retried once the lease lapsed
// is refused with lease_expired and not forwarded; it stays admitted, and
// runs once the provider renews.
func TestPendingCallAfterTheLeaseLapsed(t *testing.T) {
	ctx := context.Background()
	_, rdb := newMini(t)
	p := newProvider(t)
	clk := &clock{now: epoch}
	node := newNode(t, rdb, "reg", service.WithProviderLease(10*time.Second), service.WithClock(clk.Now))
	r := publish(t, node, p, "notes", "1", "r1")
	p.busy.Store(1)
	_, err := node.CallResolvedTool(ctx, get("c", "notes", r.Token, "x"))
	wantCode(t, err, registry.CodeOverloaded)
	clk.Advance(11 * time.Second)
	_, err = node.CallResolvedTool(ctx, get("c", "notes", r.Token, "x"))
	wantCode(t, err, registry.CodeLeaseExpired)
	if n := p.executions("c"); n != 0 {
		t.Fatalf("the call ran %d times with the lease lapsed, want 0", n)
	}
	if _, err := node.Renew(ctx, &registry.RenewRequest{Toolset: "notes", Token: r.Token}); err != nil {
		t.Fatal(err)
	}
	if _, err := node.CallResolvedTool(ctx, get("c", "notes", r.Token, "x")); err != nil {
		t.Fatalf("the call after renewal: %v", err)
	}
	if n := p.executions("c"); n != 1 {
		t.Fatalf("the call ran %d times, want 1", n)
	}
}

func TestLeaseOptions(t *testing.T) {
	_, rdb := newMini(t)
	cases := []struct {
		name string
		opts []service.Option
	}{
		{"negative", []service.Option{service.WithProviderLease(-time.Second)}},
		{"embedded store", []service.Option{service.WithProviderLease(time.Second)}},
	}
	for _, c := range cases {
		if _, err := service.New(append(c.opts, service.WithLoopbackEndpoints())...); err == nil {
			t.Errorf("%s: New accepted the lease", c.name)
		}
	}
	svc := newNode(t, rdb, "reg")
	_, err := svc.Renew(context.Background(), &registry.RenewRequest{Toolset: "notes", Token: registry.NewToken("sha256:00", "r")})
	wantCode(t, err, registry.CodeInvalidRequest)
}
