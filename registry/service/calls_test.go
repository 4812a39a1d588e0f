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

func TestCallForwardsAndRecords(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")

	res, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "r1"))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Result) != `{"name":"record r1"}` || res.ToolError != "" || res.Token != reg.Token {
		t.Fatalf("result = %+v", res)
	}
	again, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "r1"))
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Result) != string(res.Result) || !again.CompletedAt.Equal(res.CompletedAt) {
		t.Fatalf("retry result %+v, want the recorded %+v", again, res)
	}
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("provider ran the call %d times, want once", n)
	}

	failed, err := h.client.CallResolvedTool(ctx, lookup("c2", reg.Token, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	if failed.ToolError != "no record missing" || len(failed.Result) != 0 {
		t.Fatalf("tool failure = %+v", failed)
	}

	cases := []struct {
		name string
		call *registry.CallRequest
		code registry.Code
	}{
		{"retry with another payload", lookup("c1", reg.Token, "r2"), registry.CodeAdmissionConflict},
		{"retry of another tool", &registry.CallRequest{CallID: "c1", Tool: "records.search", Token: reg.Token, Payload: json.RawMessage(`{"q":"x"}`)}, registry.CodeAdmissionConflict},
		{"payload violates schema", lookup("c3", reg.Token, ""), registry.CodeInvalidPayload},
		{"server-only field sent", &registry.CallRequest{CallID: "c4", Tool: "records.lookup", Token: reg.Token, Payload: json.RawMessage(`{"id":"a","tenant_id":"t"}`)}, registry.CodeInvalidPayload},
		{"unknown tool", &registry.CallRequest{CallID: "c6", Tool: "records.delete", Token: reg.Token, Payload: json.RawMessage(`{}`)}, registry.CodeToolNotFound},
		{"unknown toolset", &registry.CallRequest{CallID: "c7", Tool: "billing.pay", Token: reg.Token, Payload: json.RawMessage(`{}`)}, registry.CodeCallNotAdmitted},
		{"token never issued", lookup("c8", registry.NewToken(reg.Fingerprint, "r0"), "a"), registry.CodeCallNotAdmitted},
		{"bad call id", lookup("c 9", reg.Token, "a"), registry.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.client.CallResolvedTool(ctx, tc.call)
			wantCode(t, err, tc.code)
		})
	}
	_, err = h.svc.CallResolvedTool(ctx, &registry.CallRequest{CallID: "c5", Tool: "records.lookup", Token: reg.Token, Payload: json.RawMessage(`{"id":"a",}`)})
	wantCode(t, err, registry.CodeInvalidPayload)
	// A refused call is not admitted: the same ID with a valid payload runs.
	if _, err := h.client.CallResolvedTool(ctx, lookup("c3", reg.Token, "ok")); err != nil {
		t.Fatalf("call refused for its payload was admitted: %v", err)
	}
}

func TestReplacementRefusesTheOldToken(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	old := publish(t, h.client, p, "1.0.0", "r1")
	done, err := h.client.CallResolvedTool(ctx, lookup("before", old.Token, "a"))
	if err != nil {
		t.Fatal(err)
	}

	replaced, err := h.client.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r2", Endpoint: p.server.URL})
	if err != nil {
		t.Fatal(err)
	}
	if replaced.Status != registry.Replaced || replaced.Registration.Token == old.Token {
		t.Fatalf("replacement = %+v", replaced)
	}

	_, err = h.client.CallResolvedTool(ctx, lookup("after", old.Token, "a"))
	wantCode(t, err, registry.CodeCallNotAdmitted)
	if _, err := h.client.CallResolvedTool(ctx, lookup("after", replaced.Registration.Token, "a")); err != nil {
		t.Fatalf("call under the new token: %v", err)
	}
	// A call published before the replacement keeps its assignment and
	// result.
	kept, err := h.client.CallResolvedTool(ctx, lookup("before", old.Token, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if kept.Token != old.Token || string(kept.Result) != string(done.Result) {
		t.Fatalf("recorded call after replacement = %+v, want %+v", kept, done)
	}
	if n := p.executions.Load(); n != 2 {
		t.Fatalf("provider ran %d calls, want 2", n)
	}
}

func TestOverloadRetry(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")

	// The provider is overloaded twice; a client allowed two retries gets
	// the result of the one execution.
	p.overloaded.Store(2)
	retrying, err := registry.NewClient(h.server.URL, registry.WithCallRetries(2, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	res, err := retrying.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Result) != `{"name":"record a"}` || p.executions.Load() != 1 {
		t.Fatalf("result %+v after %d executions", res, p.executions.Load())
	}

	// Overloaded, then replaced: the retry keeps its token and reports the
	// conflict; the new token is not borrowed.
	p.overloaded.Store(1)
	_, err = h.client.CallResolvedTool(ctx, lookup("c2", reg.Token, "b"))
	wantCode(t, err, registry.CodeOverloaded)
	var e *registry.Error
	if !errors.As(err, &e) || e.RetryAfter <= 0 {
		t.Fatalf("overload error %v carries no Retry-After", err)
	}
	publish(t, h.client, p, "1.0.0", "r2")
	_, err = h.client.CallResolvedTool(ctx, lookup("c2", reg.Token, "b"))
	wantCode(t, err, registry.CodeAdmissionConflict)
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("provider ran %d calls, want 1", n)
	}
}

func TestRegistryOverload(t *testing.T) {
	h := newHarness(t, service.WithMaxInFlight(1))
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")
	release := make(chan struct{})
	started := make(chan struct{})
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		close(started)
		<-release
		return json.RawMessage(`{"name":"slow"}`), nil
	})
	var wg sync.WaitGroup
	wg.Add(1)
	var slowErr error
	go func() {
		defer wg.Done()
		_, slowErr = h.client.CallResolvedTool(ctx, lookup("slow", reg.Token, "a"))
	}()
	<-started
	_, err := h.client.CallResolvedTool(ctx, lookup("second", reg.Token, "b"))
	wantCode(t, err, registry.CodeOverloaded)
	close(release)
	wg.Wait()
	if slowErr != nil {
		t.Fatal(slowErr)
	}
	p.setAnswer(nil)
	res, err := h.client.CallResolvedTool(ctx, lookup("second", reg.Token, "b"))
	if err != nil {
		t.Fatalf("retry after the registry's overload: %v", err)
	}
	if string(res.Result) != `{"name":"record b"}` {
		t.Fatalf("retry result = %s", res.Result)
	}
}

func TestConcurrentRetriesRunOnce(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")
	release := make(chan struct{})
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		<-release
		return json.RawMessage(`{"name":"once"}`), nil
	})
	var wg sync.WaitGroup
	results := make([]string, 8)
	errs := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := h.svc.CallResolvedTool(ctx, lookup("same", reg.Token, "a"))
			errs[i] = err
			if err == nil {
				results[i] = string(res.Result)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // let the callers reach the registry
	close(release)
	wg.Wait()
	for i := range results {
		if errs[i] != nil || results[i] != `{"name":"once"}` {
			t.Fatalf("caller %d: %q, %v", i, results[i], errs[i])
		}
	}
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("provider ran the call %d times, want once", n)
	}
}

func TestProviderAnswersOutsideTheContract(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	p.server.Config.SetKeepAlivesEnabled(false)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		return json.RawMessage(`{"title":"no name"}`), nil
	})
	_, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	wantCode(t, err, registry.CodeProviderUnavailable)
	p.setAnswer(nil)
	res, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	if err != nil {
		t.Fatalf("retry after a bad answer: %v", err)
	}
	if string(res.Result) != `{"name":"record a"}` {
		t.Fatalf("result = %s", res.Result)
	}
	// A provider no longer listening never saw the call: provider
	// unavailable, and the call may be sent again. (The provider keeps no
	// connection alive: one that broke once the call was written on it is
	// another case, the provider may have read the call, whose outcome is
	// then unknown.)
	p.server.Close()
	_, err = h.client.CallResolvedTool(ctx, lookup("c2", reg.Token, "a"))
	wantCode(t, err, registry.CodeProviderUnavailable)
}
