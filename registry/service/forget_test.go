package service_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// forgetfulStore is a shared store that can lose what it acknowledged, as
// a Redis restarted without persistence or failed over to a replica that
// lacked the last changes: lose replaces its state, and the next read
// finds it (a new epoch). While readFails is set, reads of the
// registrations fail as an unreachable store's do.
type forgetfulStore struct {
	mu        sync.Mutex
	st        service.Store
	epoch     uint64
	lost      bool
	readFails bool
}

var _ service.Store = (*forgetfulStore)(nil)

// Traits makes forgetfulStore shared, as a Redis is.
func (f *forgetfulStore) Traits() service.StoreTraits {
	return service.StoreTraits{Shared: true}
}

func newForgetfulStore() *forgetfulStore { return &forgetfulStore{st: memoryStore()} }

// lose makes st the store's state from now on.
func (f *forgetfulStore) lose(st service.Store) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.st, f.lost = st, true
}

// state returns the store's state, finding a loss since the last read.
func (f *forgetfulStore) state() service.Store {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lost {
		f.epoch, f.lost = f.epoch+1, false
	}
	return f.st
}

func (f *forgetfulStore) Epoch() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.epoch
}

func (f *forgetfulStore) Generation(ctx context.Context) (uint64, error) {
	gen, _, err := f.state().Registrations(ctx)
	return gen, err
}

func (f *forgetfulStore) Registrations(ctx context.Context) (uint64, []registry.Registration, error) {
	st := f.state()
	f.mu.Lock()
	fails := f.readFails
	f.mu.Unlock()
	if fails {
		return 0, nil, service.ErrUnavailable
	}
	return st.Registrations(ctx)
}

func (f *forgetfulStore) PutRegistration(ctx context.Context, reg *registry.Registration, prev registry.Token) (uint64, error) {
	return f.state().PutRegistration(ctx, reg, prev)
}

func (f *forgetfulStore) DeleteRegistration(ctx context.Context, toolset string, token registry.Token) (uint64, error) {
	return f.state().DeleteRegistration(ctx, toolset, token)
}

func (f *forgetfulStore) Admit(ctx context.Context, rec *service.CallRecord) (*service.CallRecord, bool, error) {
	return f.state().Admit(ctx, rec)
}

func (f *forgetfulStore) Complete(ctx context.Context, callID string, res *registry.CallResult) (*service.CallRecord, error) {
	return f.state().Complete(ctx, callID, res)
}

func (f *forgetfulStore) Call(ctx context.Context, callID string) (*service.CallRecord, error) {
	return f.state().Call(ctx, callID)
}

func (f *forgetfulStore) Forget(ctx context.Context, cutoff time.Time, keep func(string) bool) (int, error) {
	return f.state().Forget(ctx, cutoff, keep)
}

func (f *forgetfulStore) ListCalls(ctx context.Context, pending bool, limit int) ([]*service.CallRecord, bool, error) {
	return f.state().ListCalls(ctx, pending, limit)
}

func (f *forgetfulStore) Claim(ctx context.Context, callID, owner string, ttl time.Duration) (uint64, service.AttemptState, error) {
	return f.state().Claim(ctx, callID, owner, ttl)
}

func (f *forgetfulStore) Renew(ctx context.Context, callID string, fence uint64, ttl time.Duration) (bool, error) {
	return f.state().Renew(ctx, callID, fence, ttl)
}

func (f *forgetfulStore) HandOver(ctx context.Context, callID string, fence uint64) error {
	return f.state().HandOver(ctx, callID, fence)
}

func (f *forgetfulStore) AdmitAndHandOver(ctx context.Context, rec *service.CallRecord, owner string, ttl time.Duration) (*service.CallRecord, bool, uint64, error) {
	return f.state().AdmitAndHandOver(ctx, rec, owner, ttl)
}

func (f *forgetfulStore) CompleteHandedOver(ctx context.Context, callID string, fence uint64, res *registry.CallResult) (*registry.CallResult, error) {
	return f.state().CompleteHandedOver(ctx, callID, fence, res)
}

func (f *forgetfulStore) Return(ctx context.Context, callID string, fence uint64) error {
	return f.state().Return(ctx, callID, fence)
}

func (f *forgetfulStore) ReturnUnsent(ctx context.Context, callID, owner string) error {
	return f.state().ReturnUnsent(ctx, callID, owner)
}

func (f *forgetfulStore) Release(ctx context.Context, callID string, fence uint64) error {
	return f.state().Release(ctx, callID, fence)
}

func (f *forgetfulStore) Attempt(ctx context.Context, callID string) (service.AttemptState, error) {
	return f.state().Attempt(ctx, callID)
}

func (f *forgetfulStore) RenewLease(ctx context.Context, toolset string, token registry.Token, until time.Time) error {
	return f.state().RenewLease(ctx, toolset, token, until)
}

func (f *forgetfulStore) Lease(ctx context.Context, toolset string) (time.Time, error) {
	return f.state().Lease(ctx, toolset)
}

func (f *forgetfulStore) setReadFails(v bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readFails = v
}

// readyz returns the status and body of the harness's PathReadyz.
func (h *harness) readyz(t *testing.T) (int, string) {
	t.Helper()
	resp, err := http.Get(h.server.URL + service.PathReadyz)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(body))
}

// TestStoreThatLostChanges: a node whose shared store lost changes it had
// acknowledged (restarted empty, or failed over to a replica that had an
// earlier state, whose generations are lower or, after more changes, the
// same) drops its registrations and reads the store again. /readyz is 503
// store_reset while it cannot, and no request is answered from what it
// held; then it is ready and counts the reset, serves what the store
// holds, and publishes what it held before as new. On the code before, it
// served what it held, with /readyz ready, and refused to publish again.
func TestStoreThatLostChanges(t *testing.T) {
	cases := []struct {
		name string
		// after returns the state the store has after the loss, made with
		// pub, and the revisions of "records" it holds ("" for none).
		after func(t *testing.T, p *provider) (service.Store, string)
	}{
		{"restarted empty", func(*testing.T, *provider) (service.Store, string) {
			return memoryStore(), ""
		}},
		{"failed over to an earlier state", func(t *testing.T, p *provider) (service.Store, string) {
			st := memoryStore()
			n, err := service.New(service.WithStore(st), service.WithInsecure())
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			publish(t, n, p, "1.0.0", "r1")
			return st, "r1"
		}},
		{"failed over, then changed as often as before", func(t *testing.T, p *provider) (service.Store, string) {
			st := memoryStore()
			n, err := service.New(service.WithStore(st), service.WithInsecure())
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			for _, rev := range []string{"r1", "x2", "x3"} {
				publish(t, n, p, "1.0.0", rev)
			}
			return st, "x3"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newForgetfulStore()
			h := newHarness(t, service.WithStore(st))
			p := newProvider(t)
			ctx := context.Background()
			for _, rev := range []string{"r1", "r2", "r3"} {
				publish(t, h.svc, p, "1.0.0", rev)
			}
			if status, body := h.readyz(t); status != http.StatusOK || body != `{"status":"ready","store":"reachable","claims_held":0,"store_resets":0}` {
				t.Fatalf("readyz before the loss: %d %s", status, body)
			}

			after, rev := tc.after(t, p)
			st.lose(after)
			st.setReadFails(true)
			if status, body := h.readyz(t); status != http.StatusServiceUnavailable || body != `{"status":"not_ready","reason":"store_reset"}` {
				t.Errorf("readyz while the node cannot read the store again: %d %s", status, body)
			}
			if _, err := h.svc.ListToolsets(ctx); !errors.Is(err, registry.ErrOverloaded) {
				t.Errorf("list while the node cannot read the store again: %v; want overloaded", err)
			}
			st.setReadFails(false)
			if status, body := h.readyz(t); status != http.StatusOK || body != `{"status":"ready","store":"reachable","claims_held":0,"store_resets":1}` {
				t.Errorf("readyz once the node read the store again: %d %s", status, body)
			}

			cat, err := h.client.ListToolsets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var held []string
			for _, r := range cat.Toolsets {
				held = append(held, r.Revision)
			}
			if strings.Join(held, ",") != rev {
				t.Errorf("the node serves revisions %v; the store holds %q", held, rev)
			}
			res, err := h.svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r3", Endpoint: p.server.URL})
			if err != nil {
				t.Fatalf("publish again what the node held before the loss: %v", err)
			}
			want := registry.Replaced
			if rev == "" {
				want = registry.Published
			}
			if res.Status != want {
				t.Errorf("publish again what the node held before the loss: %s, want %s", res.Status, want)
			}
			if _, err := h.client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records"}}); err != nil {
				t.Errorf("resolve after the publish: %v", err)
			}
		})
	}
}

// staleStore is a shared store whose every change fails as stale while
// its registrations stay as they are, and whose reads ignore their
// context, as a store whose commands are queued whatever the caller's
// context (go-redis's autopipeliner).
type staleStore struct{ *forgetfulStore }

func (s staleStore) Registrations(context.Context) (uint64, []registry.Registration, error) {
	return s.forgetfulStore.Registrations(context.Background())
}

func (s staleStore) PutRegistration(context.Context, *registry.Registration, registry.Token) (uint64, error) {
	return 0, service.ErrStale
}

func (s staleStore) DeleteRegistration(context.Context, string, registry.Token) (uint64, error) {
	return 0, service.ErrStale
}

// TestRetriesEndWithTheirContext: a publish or withdrawal that the store
// keeps refusing as stale, with no newer registrations to read, retries
// only until its context ends (its client went away), however its store's
// reads treat the context. On the code before, it retried without end.
func TestRetriesEndWithTheirContext(t *testing.T) {
	base := newForgetfulStore()
	setup, err := service.New(service.WithStore(base), service.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	p := newProvider(t)
	reg := publish(t, setup, p, "1.0.0", "r1")
	_ = setup.Close()
	svc, err := service.New(service.WithStore(staleStore{base}), service.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	cases := []struct {
		name string
		op   func(ctx context.Context) error
	}{
		{"publish", func(ctx context.Context) error {
			_, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r2", Endpoint: p.server.URL})
			return err
		}},
		{"withdraw", func(ctx context.Context) error {
			return svc.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: reg.Token})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tc.op(ctx) }()
			select {
			case err := <-done:
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%s: %v; want its context's deadline", tc.name, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still retrying 10 s after its context ended", tc.name)
			}
		})
	}
}
