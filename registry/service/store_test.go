package service_test

import (
	"context"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Two services over one store stand for the nodes of a cluster: each
// decides on what it installed, and the store's compare-and-set and
// fencing keep their decisions consistent.
func TestServicesSharingAStore(t *testing.T) {
	st := memoryStore()
	p := newProvider(t)
	ctx := context.Background()
	a, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	r1 := publish(t, a, p, "1.0.0", "r1")
	// b has not seen r1: its publish fails the compare-and-set, reads the
	// store again and replaces r1.
	res, err := b.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != registry.Replaced {
		t.Fatalf("publish over a registration another service made: %s, want replaced", res.Status)
	}
	// a still holds r1 as current; the store fences the admission.
	_, err = a.CallResolvedTool(ctx, lookup("c1", r1.Token, "x"))
	wantCode(t, err, registry.CodeCallNotAdmitted)
	// ...and the withdrawal, which a decides again against r2.
	err = a.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: r1.Token})
	wantCode(t, err, registry.CodeTokenMismatch)
	// A call admitted through one service is admitted once: the other
	// finds its record.
	done, err := b.CallResolvedTool(ctx, lookup("c2", res.Registration.Token, "y"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := a.CallResolvedTool(ctx, lookup("c2", res.Registration.Token, "y"))
	if err != nil || string(again.Result) != string(done.Result) {
		t.Fatalf("the same call through the other service = %+v, %v; want %s", again, err, done.Result)
	}
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("provider ran %d calls, want 1", n)
	}
}

func TestStoreAndDataDirExcludeEachOther(t *testing.T) {
	if _, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(memoryStore()), service.WithDataDir(t.TempDir())); err == nil {
		t.Fatal("New accepted both a store and a data directory")
	}
}
