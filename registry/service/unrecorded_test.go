package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// fullStore is a store whose results are refused for want of space while
// full is set, as a disk that fills between a call's admission and its
// result.
type fullStore struct {
	service.Store
	full atomic.Bool
}

func (s *fullStore) Complete(ctx context.Context, callID string, res *registry.CallResult) (*service.CallRecord, error) {
	if s.full.Load() {
		return nil, fmt.Errorf("write the journal: %w", service.ErrStorageFull)
	}
	return s.Store.Complete(ctx, callID, res)
}

func (s *fullStore) CompleteHandedOver(ctx context.Context, callID string, fence uint64, res *registry.CallResult) (*registry.CallResult, error) {
	if s.full.Load() {
		return nil, fmt.Errorf("write the journal: %w", service.ErrStorageFull)
	}
	return s.Store.CompleteHandedOver(ctx, callID, fence, res)
}

// TestResultNotRecordedIsNeverRunAgain: the provider ran a call and the
// store then refused its result. The caller is told the outcome is unknown
// (not storage_full, which on the code before was followed by a retry that
// ran the call a second time); retries never send the call again; once
// the store has space, a retry records the result the provider gave and
// returns it, over HTTP too, and later retries get it.
func TestResultNotRecordedIsNeverRunAgain(t *testing.T) {
	st := &fullStore{Store: memoryStore()}
	p := newProvider(t)
	h := newHarness(t, service.WithStore(st))
	reg := publish(t, h.svc, p, "1.0.0", "r1")
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		st.full.Store(true) // the disk fills while the provider runs the call
		return json.RawMessage(`{"name":"ran once"}`), nil
	})
	ctx := context.Background()
	_, err := h.svc.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	wantUnrecorded(t, err, "its store has no space left")
	for range 3 {
		_, err = h.svc.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
		wantUnrecorded(t, err, "its store has no space left")
		_, err = h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
		wantUnrecorded(t, err, "its store has no space left")
	}
	// A retry that differs from the call is still refused.
	_, err = h.svc.CallResolvedTool(ctx, lookup("c1", reg.Token, "b"))
	wantCode(t, err, registry.CodeAdmissionConflict)
	if n := p.executions.Load(); n != 1 {
		t.Fatalf("provider ran the call %d times while its result could not be recorded", n)
	}
	st.full.Store(false)
	res, err := h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	if err != nil || string(res.Result) != `{"name":"ran once"}` {
		t.Fatalf("retry once the store has space = %+v, %v; want the result the provider gave", res, err)
	}
	rec, err := st.Call(ctx, "c1")
	if err != nil || rec.Result == nil || string(rec.Result.Result) != `{"name":"ran once"}` {
		t.Fatalf("stored record = %+v, %v; want the result recorded", rec, err)
	}
	again, err := h.svc.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	if err != nil || string(again.Result) != string(res.Result) || p.executions.Load() != 1 {
		t.Fatalf("later retry = %+v, %v after %d executions", again, err, p.executions.Load())
	}
}

// TestCloseRecordsHeldResults: a service closed while it holds a result
// that could not be recorded records it then, if the store has space.
func TestCloseRecordsHeldResults(t *testing.T) {
	st := &fullStore{Store: memoryStore()}
	p := newProvider(t)
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	reg := publish(t, svc, p, "1.0.0", "r1")
	st.full.Store(true)
	_, err = svc.CallResolvedTool(context.Background(), lookup("c1", reg.Token, "a"))
	wantUnrecorded(t, err, "no space left")
	st.full.Store(false)
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := st.Call(context.Background(), "c1")
	if err != nil || rec.Result == nil {
		t.Fatalf("record after Close = %+v, %v; want the held result recorded", rec, err)
	}
}

// TestResultNotRecordedOnAFullDisk is the case on a real disk: the
// tmpfs fills while the provider runs the call.
func TestResultNotRecordedOnAFullDisk(t *testing.T) {
	mnt := smallDisk(t, 1<<20)
	dir, filler := filepath.Join(mnt, "registry"), filepath.Join(mnt, "filler")
	var executions atomic.Int64
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(context.Context, *registry.CallRequest) (json.RawMessage, error) {
		executions.Add(1)
		fill(t, filler)
		return json.RawMessage(`{"name":"ran once"}`), nil
	}), 0))
	defer provider.Close()
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	ctx := context.Background()
	pub, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: provider.URL})
	if err != nil {
		t.Fatal(err)
	}
	// The journal's last page may take a few results more: call until one
	// is refused.
	id := ""
	for i := range 200 {
		id = fmt.Sprintf("c%d", i)
		_, err = svc.CallResolvedTool(ctx, lookup(id, pub.Registration.Token, "a"))
		if err != nil {
			break
		}
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
	}
	wantUnrecorded(t, err, "its store has no space left")
	ran := executions.Load()
	_, err = svc.CallResolvedTool(ctx, lookup(id, pub.Registration.Token, "a"))
	wantUnrecorded(t, err, "its store has no space left")
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	res, err := svc.CallResolvedTool(ctx, lookup(id, pub.Registration.Token, "a"))
	if err != nil || string(res.Result) != `{"name":"ran once"}` || executions.Load() != ran {
		t.Fatalf("retry once space is freed = %+v, %v after %d executions (%d before)", res, err, executions.Load(), ran)
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	res, err = again.CallResolvedTool(ctx, lookup(id, pub.Registration.Token, "a"))
	if err != nil || string(res.Result) != `{"name":"ran once"}` || executions.Load() != ran {
		t.Fatalf("retry after a restart = %+v, %v after %d executions (%d before)", res, err, executions.Load(), ran)
	}
}

func wantUnrecorded(t *testing.T, err error, part string) {
	t.Helper()
	if !errors.Is(err, registry.ErrCallOutcomeUnknown) || !strings.Contains(err.Error(), "ran, but the registry could not record its result") || !strings.Contains(err.Error(), part) || !strings.Contains(err.Error(), "does not send it again") {
		t.Fatalf("error = %v, want call_outcome_unknown saying the call ran and %q", err, part)
	}
}
