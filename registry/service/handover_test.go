package service_test

// A call handed to its provider and left without a recorded result by a
// registry that stopped (killed while the provider ran the call, or closed
// while it held a result its store refused) is never sent again by the
// restarted registry: every retry is call_outcome_unknown, and operators
// see the call so.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/embeddedstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// wantLost fails unless err is the call_outcome_unknown of a call handed
// over whose result no registry recorded.
func wantLost(t *testing.T, err error) {
	t.Helper()
	wantCode(t, err, registry.CodeCallOutcomeUnknown)
	if msg := err.Error(); !strings.Contains(msg, "was sent to its provider") || !strings.Contains(msg, "does not send it again") {
		t.Fatalf("error = %v, want one saying the call was sent and is not sent again", err)
	}
}

// callStates returns the state of each call the registry at base lists,
// by call ID, as "goa-discovery-registry calls --pending" reads them.
func callStates(t *testing.T, base string) map[string]string {
	t.Helper()
	resp, err := http.Get(base + registry.PathCalls + "?pending=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var calls service.Calls
	if err := json.NewDecoder(resp.Body).Decode(&calls); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("list calls: status %d, %v", resp.StatusCode, err)
	}
	out := make(map[string]string, len(calls.Calls))
	for _, c := range calls.Calls {
		out[c.CallID] = c.State
	}
	return out
}

// TestKilledWhileTheProviderRunsACall: the registry process is killed with
// SIGKILL while its provider runs a call, and restarted. On the code
// before, the restarted registry had the call's admission only and sent
// the call again.
func TestKilledWhileTheProviderRunsACall(t *testing.T) {
	dir := t.TempDir()
	var executions atomic.Int64
	running, release := make(chan struct{}, 1), make(chan struct{})
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(context.Context, *registry.CallRequest) (json.RawMessage, error) {
		executions.Add(1)
		select {
		case running <- struct{}{}:
		default:
		}
		<-release
		return json.RawMessage(`{"name":"ran"}`), nil
	}), 0))
	defer provider.Close()
	var once atomic.Bool
	free := func() {
		if once.CompareAndSwap(false, true) {
			close(release)
		}
	}
	defer free() // before the provider closes
	ctx := context.Background()
	allow := provider.URL + "/tools"
	proc := startRegistryProcess(t, dir, allow)
	client := faultClient(t, proc.url)
	pub, err := client.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: allow + "/records"})
	if err != nil {
		t.Fatal(err)
	}
	token := pub.Registration.Token
	answered := make(chan error, 1)
	go func() {
		_, err := client.CallResolvedTool(ctx, lookup("c1", token, "a"))
		answered <- err
	}()
	select {
	case <-running:
	case <-time.After(10 * time.Second):
		t.Fatal("the provider was not sent the call")
	}
	proc.kill()
	if err := <-answered; err == nil {
		t.Fatal("a call was answered by a registry killed while its provider ran it")
	}
	free() // the provider finishes the call, which no registry waits for

	proc = startRegistryProcess(t, dir, allow)
	client = faultClient(t, proc.url)
	for range 2 {
		_, err := client.CallResolvedTool(ctx, lookup("c1", token, "a"))
		wantLost(t, err)
	}
	// A retry that differs from the call is refused as before.
	_, err = client.CallResolvedTool(ctx, lookup("c1", token, "b"))
	wantCode(t, err, registry.CodeAdmissionConflict)
	if got := callStates(t, proc.url)["c1"]; got != "outcome_unknown" {
		t.Fatalf("registry calls --pending lists c1 as %q, want outcome_unknown", got)
	}
	if n := executions.Load(); n != 1 {
		t.Fatalf("the provider ran the call %d times, want once", n)
	}
	// A new call runs.
	if _, err := client.CallResolvedTool(ctx, lookup("c2", token, "a")); err != nil {
		t.Fatalf("a new call after the restart: %v", err)
	}
}

// heldDisk is where TestHeldResultOfAStoppedRegistry's first registry
// keeps its store: the data directory, the options that put the store
// there, what the provider does to fill it, what frees it again, and what
// ends the store once the registry stopped.
type heldDisk struct {
	dir              string
	opts             []service.Option
	fill, free, stop func()
}

// TestHeldResultOfAStoppedRegistry: the provider ran the call, the store
// refused its result (its disk full: a tmpfs that fills, or the embedded
// store refusing results for want of space), and the registry was stopped
// while it held the result, its Close unable to record it either. Restarted with
// space, the registry never sends the call again. On the code before, the
// restarted registry had the call's admission only and sent it again.
func TestHeldResultOfAStoppedRegistry(t *testing.T) {
	cases := []struct {
		name string
		disk func(t *testing.T) heldDisk
	}{
		{"results refused", func(t *testing.T) heldDisk {
			dir := t.TempDir()
			own, err := embeddedstore.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			st := &fullStore{Store: own}
			return heldDisk{dir: dir, opts: []service.Option{service.WithStore(st)},
				fill: func() { st.full.Store(true) }, free: func() {}, stop: own.Close}
		}},
		{"tmpfs fills", func(t *testing.T) heldDisk {
			mnt := smallDisk(t, 1<<20)
			filler := filepath.Join(mnt, "filler")
			dir := filepath.Join(mnt, "registry")
			return heldDisk{dir: dir, opts: []service.Option{service.WithDataDir(dir)},
				fill: func() { fill(t, filler) }, free: func() {
					if err := os.Remove(filler); err != nil && !os.IsNotExist(err) {
						t.Fatal(err)
					}
				}, stop: func() {}}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			disk := tc.disk(t)
			dir, fillDisk, free := disk.dir, disk.fill, disk.free
			var executions atomic.Int64
			provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(context.Context, *registry.CallRequest) (json.RawMessage, error) {
				executions.Add(1)
				fillDisk()
				return json.RawMessage(`{"name":"ran once"}`), nil
			}), 0))
			defer provider.Close()
			svc, err := service.New(append([]service.Option{service.WithLoopbackEndpoints()}, disk.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			pub, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: provider.URL})
			if err != nil {
				t.Fatal(err)
			}
			token := pub.Registration.Token
			// The journal's last page may take a few results more: call
			// until one is refused.
			id := ""
			for i := range 200 {
				id = fmt.Sprintf("c%d", i)
				_, err = svc.CallResolvedTool(ctx, lookup(id, token, "a"))
				if err != nil {
					break
				}
				free()
			}
			wantUnrecorded(t, err, "its store has no space left")
			ran := executions.Load()
			_, err = svc.CallResolvedTool(ctx, lookup(id, token, "a"))
			wantUnrecorded(t, err, "its store has no space left")
			if err := svc.Close(); err != nil { // cannot record the held result
				t.Fatal(err)
			}
			disk.stop()
			free()

			again, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = again.Close() })
			for range 2 {
				_, err = again.CallResolvedTool(ctx, lookup(id, token, "a"))
				wantLost(t, err)
			}
			calls, err := again.ListCalls(ctx, true, 10)
			if err != nil || len(calls.Calls) != 1 || calls.Calls[0].CallID != id || calls.Calls[0].State != "outcome_unknown" {
				t.Fatalf("pending calls after the restart = %+v, %v; want %s, outcome_unknown", calls, err, id)
			}
			if n := executions.Load(); n != ran {
				t.Fatalf("the provider ran %d calls, %d before the restart", n, ran)
			}
			if _, err := again.CallResolvedTool(ctx, lookup("new", token, "a")); err != nil {
				t.Fatalf("a new call after the restart: %v", err)
			}
		})
	}
}
