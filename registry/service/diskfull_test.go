package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// smallDisk mounts a tmpfs of size bytes in a temporary directory, removed
// with the test, or skips the test where mounting is not permitted.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		realdeps.Absent(t, "tmpfs mount", fmt.Sprintf("mounting a small tmpfs is not permitted here: %v: %s", err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes to path until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill: %v", err)
			}
			return
		}
	}
}

// bulkToolset is a toolset of about size bytes.
func bulkToolset(size int) tools.ToolsetSchema {
	ts := tools.ToolsetSchema{Name: "bulk", Version: "1.0.0"}
	desc := strings.Repeat("Bulk records of every kind. ", 4000/28)
	for i := 0; i*4000 < size; i++ {
		ts.Tools = append(ts.Tools, tools.ToolSchema{
			Name:        tools.Ident(fmt.Sprintf("bulk.tool%03d", i)),
			Description: desc,
			Payload:     json.RawMessage(`{"type":"object"}`),
		})
	}
	return ts
}

func TestFullDiskKeepsReadsAndWithdrawals(t *testing.T) {
	mnt := smallDisk(t, 4<<20)
	dir := filepath.Join(mnt, "registry")
	filler := filepath.Join(mnt, "filler")
	p := newProvider(t)
	ctx := context.Background()

	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	reg := publish(t, svc, p, "1.0.0", "r1")
	bulk, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: bulkToolset(1 << 20), Revision: "b1", Endpoint: p.server.URL})
	if err != nil {
		t.Fatal(err)
	}
	done, err := svc.CallResolvedTool(ctx, lookup("before", reg.Token, "a"))
	if err != nil {
		t.Fatal(err)
	}
	fill(t, filler)

	// Writes are refused with a precise error; the journal's last page may
	// hold a few admissions more.
	_, err = svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL})
	wantStorageFull(t, err, "no space left")
	admitted := fillWithCalls(t, svc, reg.Token, "full")
	// Reads, and retries of recorded calls, still work.
	checkReads(t, svc, 2)
	again, err := svc.CallResolvedTool(ctx, lookup("before", reg.Token, "a"))
	if err != nil || string(again.Result) != string(done.Result) {
		t.Fatalf("retry of a recorded call on a full disk = %+v, %v", again, err)
	}
	// A withdrawal needs no space, and frees some.
	if err := svc.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "bulk", Token: bulk.Registration.Token}); err != nil {
		t.Fatalf("withdraw on a full disk: %v", err)
	}
	if _, err := svc.CallResolvedTool(ctx, lookup("after-withdraw", reg.Token, "b")); err != nil {
		t.Fatalf("call once space was freed: %v", err)
	}
	// Space freed outside the registry is used again without a restart.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	bulk, err = svc.Publish(ctx, &registry.PublishRequest{Toolset: bulkToolset(1 << 20), Revision: "b2", Endpoint: p.server.URL})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}

	// A restart on a full disk serves reads and refuses writes.
	fill(t, filler)
	svc, err = service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatalf("restart on a full disk: %v", err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	checkReads(t, svc, 2)
	for _, id := range append(admitted, "before", "after-withdraw") {
		if _, err := svc.CallResolvedTool(ctx, lookup(id, reg.Token, "other")); !errors.Is(err, registry.ErrAdmissionConflict) {
			t.Fatalf("call %s acknowledged before the restart: retry with another payload = %v, want admission_conflict", id, err)
		}
	}
	_, err = svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL})
	wantStorageFull(t, err, "no space left")
	fillWithCalls(t, svc, reg.Token, "restarted")
	if err := svc.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "bulk", Token: bulk.Registration.Token}); err != nil {
		t.Fatalf("withdraw after a restart on a full disk: %v", err)
	}
	if _, err := svc.CallResolvedTool(ctx, lookup("after-restart", reg.Token, "c")); err != nil {
		t.Fatalf("call once space was freed: %v", err)
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestFullDiskAtStartIsReadOnly(t *testing.T) {
	mnt := smallDisk(t, 1<<20)
	dir := filepath.Join(mnt, "registry")
	p := newProvider(t)
	ctx := context.Background()
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	reg := publish(t, svc, p, "1.0.0", "r1")
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	// Without its generation file, the store cannot start writable on a
	// full disk: the generation must move past every one served before.
	if err := os.Remove(filepath.Join(dir, "generation")); err != nil {
		t.Fatal(err)
	}
	fill(t, filepath.Join(mnt, "filler"))
	svc, err = service.New(service.WithInsecure(), service.WithDataDir(dir))
	if err != nil {
		t.Fatalf("start on a full disk: %v", err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	checkReads(t, svc, 1)
	_, err = svc.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	wantStorageFull(t, err, "read-only")
	err = svc.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: reg.Token})
	wantStorageFull(t, err, "read-only")
	_, err = svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL})
	wantStorageFull(t, err, "read-only")
	// Over HTTP, the refusal reaches the client with its code.
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	client, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.ListToolsets(ctx); err != nil {
		t.Fatalf("list over HTTP on a full disk: %v", err)
	}
	_, err = client.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL})
	wantStorageFull(t, err, "read-only")
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 2 {
		t.Fatalf("data directory after a read-only start: %v, %v; want toolsets/ and calls.journal only", entries, err)
	}
}

// fillWithCalls admits calls until the store refuses one for want of
// space, and returns the IDs of those admitted.
func fillWithCalls(t *testing.T, svc *service.Service, token registry.Token, prefix string) []string {
	t.Helper()
	var ids []string
	for i := range 200 {
		id := fmt.Sprintf("%s-%d", prefix, i)
		_, err := svc.CallResolvedTool(context.Background(), lookup(id, token, id))
		if err != nil {
			wantStorageFull(t, err, "no space left")
			return ids
		}
		ids = append(ids, id)
	}
	t.Fatalf("%d calls admitted on a full disk", len(ids))
	return nil
}

// checkReads fails unless the list and a resolve answer with n toolsets.
func checkReads(t *testing.T, svc *service.Service, n int) {
	t.Helper()
	cat, err := svc.ListToolsets(context.Background())
	if err != nil || len(cat.Toolsets) != n {
		t.Fatalf("list on a full disk = %v, %v; want %d toolsets", cat, err, n)
	}
	if _, err := svc.ResolveToolsets(context.Background(), []registry.ToolsetRef{{Name: "records"}}); err != nil {
		t.Fatalf("resolve on a full disk: %v", err)
	}
}

func wantStorageFull(t *testing.T, err error, part string) {
	t.Helper()
	if !errors.Is(err, registry.ErrStorageFull) || !strings.Contains(err.Error(), part) {
		t.Fatalf("error = %v, want storage_full saying %q", err, part)
	}
}
