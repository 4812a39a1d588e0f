package redisstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// A registry still holding calls in the earlier layout (the sorted set
// "calls" listing string keys call:ID, result:ID, claim:ID, sent:ID) is
// refused by every call operation with ErrOldLayout, whose text names the
// key and what to do; its registrations are served as before, and once the
// old calls are gone the store serves the calls.
func TestOldLayoutRefused(t *testing.T) { eachRedis(t, testOldLayoutRefused) }

func testOldLayoutRefused(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	prefix := "goa-discovery:{" + name + "}:"
	old := map[string]string{
		prefix + "call:c1":   `{"call_id":"c1","tool":"a.get","token":"t1","payload_digest":"d","revision":"","endpoint":"","admitted_at":"2026-01-01T00:00:00Z"}`,
		prefix + "result:c1": `{"call_id":"c1","tool_error":"x","completed_at":"2026-01-01T00:00:01Z"}`,
	}
	for k, v := range old {
		if err := rdb.Set(ctx, k, v, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := rdb.ZAdd(ctx, prefix+"calls", redis.Z{Score: 1, Member: "c1"}).Err(); err != nil {
		t.Fatal(err)
	}
	st, err := redisstore.New(rdb, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatalf("registrations are kept as before: %v", err)
	}
	rec := &service.CallRecord{CallID: "c2", Tool: tools.Ident("a.get"), Token: "t1", PayloadDigest: "d", AdmittedAt: epoch}
	ops := []struct {
		name string
		op   func() error
	}{
		{"Admit", func() error { _, _, err := st.Admit(ctx, rec); return err }},
		{"AdmitAndHandOver", func() error { _, _, _, err := st.AdmitAndHandOver(ctx, rec, "n", time.Minute); return err }},
		{"Complete", func() error { _, err := st.Complete(ctx, "c1", &registry.CallResult{CallID: "c1"}); return err }},
		{"CompleteHandedOver", func() error {
			_, err := st.CompleteHandedOver(ctx, "c1", 1, &registry.CallResult{CallID: "c1"})
			return err
		}},
		{"Call", func() error { _, err := st.Call(ctx, "c1"); return err }},
		{"ListCalls", func() error { _, _, err := st.ListCalls(ctx, false, 10); return err }},
		{"Forget", func() error { _, err := st.Forget(ctx, time.Now(), func(string) bool { return false }); return err }},
		{"Claim", func() error { _, _, err := st.Claim(ctx, "c1", "n", time.Minute); return err }},
		{"Renew", func() error { _, err := st.Renew(ctx, "c1", 1, time.Minute); return err }},
		{"HandOver", func() error { return st.HandOver(ctx, "c1", 1) }},
		{"Return", func() error { return st.Return(ctx, "c1", 1) }},
		{"Release", func() error { return st.Release(ctx, "c1", 1) }},
		{"ReturnUnsent", func() error { return st.ReturnUnsent(ctx, "c1", "n") }},
		{"Attempt", func() error { _, err := st.Attempt(ctx, "c1"); return err }},
	}
	for _, o := range ops {
		err := o.op()
		if !errors.Is(err, redisstore.ErrOldLayout) || !strings.Contains(err.Error(), prefix+"calls") {
			t.Errorf("%s on a registry with calls in the earlier layout: %v; want ErrOldLayout naming %scalls", o.name, err, prefix)
		}
	}
	for k, v := range old {
		if got, err := rdb.Get(ctx, k).Result(); err != nil || got != v {
			t.Errorf("old key %s = %q, %v; want it untouched", k, got, err)
		}
	}
	if err := rdb.Del(ctx, prefix+"calls", prefix+"call:c1", prefix+"result:c1").Err(); err != nil {
		t.Fatal(err)
	}
	for _, o := range ops[:1] {
		if err := o.op(); err != nil {
			t.Errorf("%s once the old calls are deleted: %v", o.name, err)
		}
	}
}

// A claim is current until its deadline on Redis's clock, which Renew
// moves; a call handed over under a claim that lapsed is lost, and a call
// with no record cannot be claimed.
func TestClaimDeadline(t *testing.T) { eachRedis(t, testClaimDeadline) }

func testClaimDeadline(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	st, _ := redisstore.New(rdb, name)
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	if fence, state, err := st.Claim(ctx, "none", "n", time.Minute); fence != 0 || state != service.AttemptFree || err != nil {
		t.Fatalf("claim of a call with no record = %d, %v, %v; want 0, free", fence, state, err)
	}
	rec := &service.CallRecord{CallID: "c", Tool: tools.Ident("a.get"), Token: "t1", PayloadDigest: "d", AdmittedAt: epoch}
	const ttl = 100 * time.Millisecond
	_, isNew, fence, err := st.AdmitAndHandOver(ctx, rec, "n1", ttl)
	if err != nil || !isNew || fence == 0 {
		t.Fatalf("admit and hand over = %v, %d, %v", isNew, fence, err)
	}
	if ok, err := st.Renew(ctx, "c", fence, time.Minute); !ok || err != nil {
		t.Fatalf("renew = %v, %v", ok, err)
	}
	time.Sleep(2 * ttl)
	if state, err := st.Attempt(ctx, "c"); state != service.AttemptClaimed || err != nil {
		t.Fatalf("attempt past the first deadline, renewed = %v, %v; want claimed", state, err)
	}
	if ok, err := st.Renew(ctx, "c", fence, ttl); !ok || err != nil {
		t.Fatalf("renew = %v, %v", ok, err)
	}
	waitFor(t, "the claim to lapse", func() bool {
		state, err := st.Attempt(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		return state == service.AttemptLost
	})
	if ok, err := st.Renew(ctx, "c", fence, time.Minute); ok || err != nil {
		t.Fatalf("renew of a lapsed claim = %v, %v; want false", ok, err)
	}
	if f, state, err := st.Claim(ctx, "c", "n2", time.Minute); f != 0 || state != service.AttemptLost || err != nil {
		t.Fatalf("claim of a call handed over under a lapsed claim = %d, %v, %v; want 0, lost", f, state, err)
	}
	if res, err := st.CompleteHandedOver(ctx, "c", fence, &registry.CallResult{CallID: "c", CompletedAt: epoch}); err != nil || res == nil {
		t.Fatalf("the result of the hand-over = %v, %v", res, err)
	}
	if state, err := st.Attempt(ctx, "c"); state != service.AttemptDone || err != nil {
		t.Fatalf("attempt after the result = %v, %v; want done", state, err)
	}
}
