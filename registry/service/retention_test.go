package service_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/embeddedstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

func TestOptionsRejected(t *testing.T) {
	cases := []struct {
		name string
		opt  service.Option
	}{
		{"in-flight", service.WithMaxInFlight(0)},
		{"body", service.WithMaxBodyBytes(-1)},
		{"timeout", service.WithForwardTimeout(0)},
		{"retention", service.WithCallRetention(-time.Second)},
		{"clock", service.WithClock(nil)},
	}
	for _, tc := range cases {
		if _, err := service.New(service.WithLoopbackEndpoints(), tc.opt); err == nil {
			t.Errorf("%s: New accepted an invalid option", tc.name)
		}
	}
}

// TestCallRetention: a service with WithCallRetention forgets expired
// calls at its sweeps and when it starts again, and the data directory's
// journal forgets them too: once the service is closed, a store opened on
// the directory holds exactly the calls the service still listed.
func TestCallRetention(t *testing.T) {
	clock := &frozenClock{now: time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	open := func() *service.Service {
		t.Helper()
		svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir), service.WithClock(clock.Now), service.WithCallRetention(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	svc := open()
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, svc, p, "1.0.0", "r1")
	if _, err := svc.CallResolvedTool(ctx, lookup("old", reg.Token, "a")); err != nil {
		t.Fatal(err)
	}
	p.overloaded.Store(1)
	_, err := svc.CallResolvedTool(ctx, lookup("pending", reg.Token, "b"))
	wantCode(t, err, registry.CodeOverloaded)
	wantCalls(t, "stored", listedCalls(t, svc), "old", "pending")

	clock.Advance(30 * time.Minute)
	if _, err := svc.CallResolvedTool(ctx, lookup("recent", reg.Token, "c")); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, "within retention", listedCalls(t, svc), "old", "pending", "recent")
	// Within retention, a retry finds its admission.
	_, err = svc.CallResolvedTool(ctx, lookup("pending", reg.Token, "other"))
	wantCode(t, err, registry.CodeAdmissionConflict)

	clock.Advance(45 * time.Minute) // "old" and "pending" are 75 minutes old, "recent" 45
	if _, err := svc.CallResolvedTool(ctx, lookup("new", reg.Token, "d")); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, "after the sweep", listedCalls(t, svc), "new", "recent")
	// A forgotten call ID is a new call, admitted under the current token.
	before := p.executions.Load()
	if _, err := svc.CallResolvedTool(ctx, lookup("old", reg.Token, "a")); err != nil {
		t.Fatal(err)
	}
	if p.executions.Load() != before+1 {
		t.Fatal("a forgotten call was answered from a record")
	}
	// Forgetting never lets a call past a replacement: the forgotten
	// pending call, retried under its replaced token, is not admitted.
	publish(t, svc, p, "1.0.0", "r2")
	_, err = svc.CallResolvedTool(ctx, lookup("pending", reg.Token, "b"))
	wantCode(t, err, registry.CodeCallNotAdmitted)
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, "in the journal after the sweep", journalCalls(t, dir), "new", "old", "recent")

	// A restart long after forgets what expired meanwhile.
	clock.Advance(2 * time.Hour)
	again := open()
	wantCalls(t, "after a late restart", listedCalls(t, again))
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, "in the journal after a late restart", journalCalls(t, dir))
}

// listedCalls returns the IDs of the calls svc lists, sorted.
func listedCalls(t *testing.T, svc *service.Service) []string {
	t.Helper()
	calls, err := svc.ListCalls(context.Background(), false, service.MaxCallsLimit)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(calls.Calls))
	for i, c := range calls.Calls {
		ids[i] = c.CallID
	}
	slices.Sort(ids)
	return ids
}

// journalCalls returns the IDs of the calls the data directory dir holds,
// sorted, read by an embedded store opened on it (no service, so no
// sweep). The service that wrote dir must be closed.
func journalCalls(t *testing.T, dir string) []string {
	t.Helper()
	st, err := embeddedstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, _, err := st.ListCalls(context.Background(), false, service.MaxCallsLimit)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.CallID
	}
	slices.Sort(ids)
	return ids
}

// wantCalls fails unless got holds exactly the call IDs want, sorted.
func wantCalls(t *testing.T, when string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("calls %s: %q, want %q", when, got, want)
	}
}
