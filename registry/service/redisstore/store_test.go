package redisstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func reg(name string, token registry.Token) *registry.Registration {
	return &registry.Registration{Toolset: notesToolset(name, "1"), Revision: string(token), Token: token, Endpoint: "http://127.0.0.1:1/"}
}

func TestRegistrationRules(t *testing.T) { eachRedis(t, testRegistrationRules) }

func testRegistrationRules(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	st, err := redisstore.New(rdb, name)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		do      func() (uint64, error)
		wantGen uint64
		wantErr error
	}{
		{"put new", func() (uint64, error) { return st.PutRegistration(ctx, reg("a", "t1"), "") }, 1, nil},
		{"put new again", func() (uint64, error) { return st.PutRegistration(ctx, reg("a", "t2"), "") }, 0, service.ErrStale},
		{"put over a stale token", func() (uint64, error) { return st.PutRegistration(ctx, reg("a", "t2"), "t0") }, 0, service.ErrStale},
		{"replace", func() (uint64, error) { return st.PutRegistration(ctx, reg("a", "t2"), "t1") }, 2, nil},
		{"other toolset", func() (uint64, error) { return st.PutRegistration(ctx, reg("b", "u1"), "") }, 3, nil},
		{"withdraw a stale token", func() (uint64, error) { return st.DeleteRegistration(ctx, "a", "t1") }, 0, service.ErrStale},
		{"withdraw no token", func() (uint64, error) { return st.DeleteRegistration(ctx, "c", "") }, 0, service.ErrStale},
		{"withdraw", func() (uint64, error) { return st.DeleteRegistration(ctx, "a", "t2") }, 4, nil},
		{"withdraw again", func() (uint64, error) { return st.DeleteRegistration(ctx, "a", "t2") }, 0, service.ErrStale},
	}
	for _, s := range steps {
		gen, err := s.do()
		if !errors.Is(err, s.wantErr) || gen != s.wantGen {
			t.Fatalf("%s: generation %d, error %v; want %d, %v", s.name, gen, err, s.wantGen, s.wantErr)
		}
	}
	gen, regs, err := st.Registrations(ctx)
	if err != nil || gen != 4 || len(regs) != 1 || regs[0].Token != "u1" {
		t.Fatalf("registrations = %d, %+v, %v; want generation 4 and b alone", gen, regs, err)
	}
	if g, err := st.Generation(ctx); err != nil || g != 4 {
		t.Fatalf("generation = %d, %v; want 4", g, err)
	}
}

func TestCallRules(t *testing.T) { eachRedis(t, testCallRules) }

func testCallRules(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	st, _ := redisstore.New(rdb, name)
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	rec := func(id string, token registry.Token, at time.Time) *service.CallRecord {
		return &service.CallRecord{CallID: id, Tool: tools.Ident("a.get"), Token: token, PayloadDigest: "d", AdmittedAt: at}
	}
	if _, _, err := st.Admit(ctx, rec("c0", "t0", epoch)); !errors.Is(err, service.ErrStale) {
		t.Fatalf("admission under a stale token: %v, want ErrStale", err)
	}
	for i, want := range []bool{true, false} {
		got, isNew, err := st.Admit(ctx, rec("c1", "t1", epoch.Add(time.Duration(i)*time.Hour)))
		if err != nil || isNew != want || !got.AdmittedAt.Equal(epoch) {
			t.Fatalf("admission %d = %+v, %v, %v; want new=%v admitted at %v", i, got, isNew, err, want, epoch)
		}
	}
	if _, err := st.Complete(ctx, "nope", &registry.CallResult{CallID: "nope"}); !errors.Is(err, service.ErrNotAdmitted) {
		t.Fatalf("result of a call never admitted: %v, want ErrNotAdmitted", err)
	}
	if fence, _, err := st.Claim(ctx, "c1", "node-a", time.Minute); fence == 0 || err != nil {
		t.Fatalf("claim = %v, %v", fence, err)
	}
	first := &registry.CallResult{CallID: "c1", ToolError: "first", CompletedAt: epoch.Add(time.Minute)}
	for _, res := range []*registry.CallResult{first, {CallID: "c1", ToolError: "second", CompletedAt: epoch.Add(2 * time.Minute)}} {
		got, err := st.Complete(ctx, "c1", res)
		if err != nil || got.Result == nil || got.Result.ToolError != "first" {
			t.Fatalf("complete = %+v, %v; want the first result", got, err)
		}
	}
	// The recorded result ended the claim.
	if state, err := st.Attempt(ctx, "c1"); state != service.AttemptDone || err != nil {
		t.Fatalf("attempt after the result = %v, %v; want done", state, err)
	}
	if _, state, err := st.Claim(ctx, "c1", "node-b", time.Minute); state != service.AttemptDone || err != nil {
		t.Fatalf("claim after the result = %v, %v; want done", state, err)
	}
	// Withdrawn: a new call is fenced, the admitted one keeps its record.
	if _, err := st.DeleteRegistration(ctx, "a", "t1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Admit(ctx, rec("c2", "t1", epoch)); !errors.Is(err, service.ErrStale) {
		t.Fatalf("admission after withdrawal: %v, want ErrStale", err)
	}
	if got, _, err := st.Admit(ctx, rec("c1", "t1", epoch)); err != nil || got.Result == nil {
		t.Fatalf("retry of a completed call = %+v, %v; want its record", got, err)
	}
}

func TestForget(t *testing.T) { eachRedis(t, testForget) }

func testForget(t *testing.T, rdb redis.UniversalClient, name string) {
	ctx := context.Background()
	st, _ := redisstore.New(rdb, name)
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id     string
		at     time.Time
		result time.Time
	}{
		{"old", epoch, time.Time{}},
		{"old-kept", epoch, time.Time{}},
		{"old-claimed", epoch, time.Time{}},
		{"old-completed-late", epoch, epoch.Add(time.Hour)},
		{"new", epoch.Add(time.Hour), time.Time{}},
	} {
		if _, _, err := st.Admit(ctx, &service.CallRecord{CallID: c.id, Tool: "a.get", Token: "t1", AdmittedAt: c.at}); err != nil {
			t.Fatal(err)
		}
		if !c.result.IsZero() {
			if _, err := st.Complete(ctx, c.id, &registry.CallResult{CallID: c.id, CompletedAt: c.result}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A call another node forwards now is kept, whatever this node's keep
	// says.
	if fence, _, err := st.Claim(ctx, "old-claimed", "other-node", time.Minute); fence == 0 || err != nil {
		t.Fatalf("claim = %d, %v", fence, err)
	}
	n, err := st.Forget(ctx, epoch.Add(time.Minute), func(id string) bool { return id == "old-kept" })
	if err != nil || n != 1 {
		t.Fatalf("forget = %d, %v; want 1", n, err)
	}
	for id, want := range map[string]bool{"old": false, "old-kept": true, "old-claimed": true, "old-completed-late": true, "new": true} {
		rec, err := st.Call(ctx, id)
		if err != nil || (rec != nil) != want {
			t.Fatalf("call %q after forget = %+v, %v; want kept=%v", id, rec, err, want)
		}
	}
}

func TestRegistryNames(t *testing.T) {
	ctx := context.Background()
	_, rdb := newMini(t)
	a, _ := redisstore.New(rdb, "one")
	b, _ := redisstore.New(rdb, "two")
	if _, err := a.PutRegistration(ctx, reg("a", "t1"), ""); err != nil {
		t.Fatal(err)
	}
	if gen, regs, err := b.Registrations(ctx); err != nil || gen != 0 || len(regs) != 0 {
		t.Fatalf("another registry's registrations = %d, %v, %v; want none", gen, regs, err)
	}
	for _, name := range []string{"", "a{b}"} {
		if _, err := redisstore.New(rdb, name); err == nil {
			t.Fatalf("New accepted registry name %q", name)
		}
	}
}

func TestUnreachableRedis(t *testing.T) {
	ctx := context.Background()
	m, rdb := newMini(t)
	st, _ := redisstore.New(rdb, "r")
	addr := m.Addr()
	m.Close()
	if _, err := st.PutRegistration(ctx, reg("a", "t1"), ""); !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("put with Redis down: %v, want ErrUnavailable", err)
	}
	if _, err := redisstore.Open(ctx, "redis://"+addr, "r"); !errors.Is(err, service.ErrUnavailable) {
		t.Fatalf("open with Redis down: %v, want ErrUnavailable", err)
	}
	if _, err := redisstore.Open(ctx, "http://x", "r"); err == nil {
		t.Fatal("Open accepted a URL that is not Redis's")
	}
}
