package embeddedstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/embeddedstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestCallRetention: a service with WithCallRetention forgets expired
// calls from the data directory's journal, at its sweeps and when it
// starts again.
func TestCallRetention(t *testing.T) {
	clock := &frozenClock{now: time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir), service.WithClock(clock.Now), service.WithCallRetention(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, svc, p, "1.0.0", "r1")
	if _, err := svc.CallResolvedTool(ctx, lookup("old", reg.Token, "a")); err != nil {
		t.Fatal(err)
	}
	p.overloaded.Store(1)
	_, err = svc.CallResolvedTool(ctx, lookup("pending", reg.Token, "b"))
	wantCode(t, err, registry.CodeOverloaded)
	callFiles := func() int {
		n, err := embeddedstore.StoredCalls(dir)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := callFiles(); n != 2 {
		t.Fatalf("%d call records stored, want 2", n)
	}

	clock.Advance(30 * time.Minute)
	if _, err := svc.CallResolvedTool(ctx, lookup("recent", reg.Token, "c")); err != nil {
		t.Fatal(err)
	}
	if n := callFiles(); n != 3 {
		t.Fatalf("%d call records within retention, want 3", n)
	}
	// Within retention, a retry finds its admission.
	_, err = svc.CallResolvedTool(ctx, lookup("pending", reg.Token, "other"))
	wantCode(t, err, registry.CodeAdmissionConflict)

	clock.Advance(45 * time.Minute) // "old" and "pending" are 75 minutes old, "recent" 45
	if _, err := svc.CallResolvedTool(ctx, lookup("new", reg.Token, "d")); err != nil {
		t.Fatal(err)
	}
	if n := callFiles(); n != 2 {
		t.Fatalf("%d call records after the sweep, want 2 (recent, new)", n)
	}
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

	// A restart long after forgets what expired meanwhile.
	clock.Advance(2 * time.Hour)
	again, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir), service.WithClock(clock.Now), service.WithCallRetention(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if n := callFiles(); n != 0 {
		t.Fatalf("%d call records after a late restart, want none", n)
	}
}
