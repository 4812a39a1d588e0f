package service_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

func TestConcurrentConsumersAndPublisher(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	publish(t, h.client, p, "1.0.0", "r0")

	const consumers, rounds, revisions = 8, 25, 20
	var wg sync.WaitGroup
	errs := make(chan error, consumers+1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= revisions; i++ {
			_, err := h.client.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset(fmt.Sprintf("1.0.%d", i)), Revision: fmt.Sprintf("r%d", i), Endpoint: p.server.URL})
			if err != nil {
				errs <- fmt.Errorf("publish r%d: %w", i, err)
				return
			}
		}
	}()
	var admitted, refused sync.Map
	for c := range consumers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lastGen uint64
			for r := range rounds {
				var cat *registry.Catalog
				var err error
				if r%2 == 0 {
					cat, err = h.client.ListToolsets(ctx)
				} else {
					cat, err = h.client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records"}})
				}
				if err != nil {
					errs <- fmt.Errorf("consumer %d round %d: read: %w", c, r, err)
					return
				}
				if cat.Generation < lastGen {
					errs <- fmt.Errorf("consumer %d: generation went back from %d to %d", c, lastGen, cat.Generation)
					return
				}
				lastGen = cat.Generation
				tok := cat.Toolsets[0].Token
				id := fmt.Sprintf("c%d-%d", c, r)
				res, err := h.client.CallResolvedTool(ctx, lookup(id, tok, id))
				switch {
				case errors.Is(err, registry.ErrCallNotAdmitted):
					refused.Store(id, true)
				case err != nil:
					errs <- fmt.Errorf("consumer %d call %s: %w", c, id, err)
					return
				case res.Token != tok || string(res.Result) != fmt.Sprintf(`{"name":"record %s"}`, id):
					errs <- fmt.Errorf("consumer %d call %s: result %+v under token %s", c, id, res, tok)
					return
				default:
					admitted.Store(id, true)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var nAdmitted int64
	admitted.Range(func(any, any) bool { nAdmitted++; return true })
	if nAdmitted != p.executions.Load() {
		t.Fatalf("%d calls admitted and answered, provider ran %d", nAdmitted, p.executions.Load())
	}
	cat, err := h.client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records", Version: fmt.Sprintf("1.0.%d", revisions)}})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Toolsets[0].Revision != fmt.Sprintf("r%d", revisions) {
		t.Fatalf("final revision %s", cat.Toolsets[0].Revision)
	}
}

func TestWithdrawalDuringAPendingCall(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")
	p.overloaded.Store(1)
	_, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	wantCode(t, err, registry.CodeOverloaded)
	if err := h.client.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: reg.Token}); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	wantCode(t, err, registry.CodeAdmissionConflict)
	// Publishing the same fingerprint and revision again restores the
	// admission's token: the pending call may continue.
	publish(t, h.client, p, "1.0.0", "r1")
	if _, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a")); err != nil {
		t.Fatalf("pending call under a restored token: %v", err)
	}
}
