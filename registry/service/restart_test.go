package service_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestRestartWithDataDirLosesNothing(t *testing.T) {
	dir := t.TempDir()
	p := newProvider(t)
	ctx := context.Background()

	first, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	reg := publish(t, first, p, "1.0.0", "r1")
	billing := recordsToolset("3.0.0")
	billing.Name = "billing"
	for i := range billing.Tools {
		billing.Tools[i].Name = tools.Ident("billing." + billing.Tools[i].Name.Tool())
	}
	billingReg, err := first.Publish(ctx, &registry.PublishRequest{Toolset: billing, Revision: "b1", Endpoint: p.server.URL})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "billing", Token: billingReg.Registration.Token}); err != nil {
		t.Fatal(err)
	}
	done, err := first.CallResolvedTool(ctx, lookup("done", reg.Token, "a"))
	if err != nil {
		t.Fatal(err)
	}
	p.overloaded.Store(1)
	_, err = first.CallResolvedTool(ctx, lookup("pending", reg.Token, "b"))
	wantCode(t, err, registry.CodeOverloaded)
	before, err := first.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	// A crash may leave a temporary file behind; it is not a record.
	if err := os.WriteFile(filepath.Join(dir, "toolsets", ".tmp-crash"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}

	second, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	after, err := second.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before.Toolsets, after.Toolsets); diff != "" {
		t.Fatalf("registrations after restart (-before +after):\n%s", diff)
	}
	if after.Generation <= before.Generation {
		t.Fatalf("generation %d after restart, was %d", after.Generation, before.Generation)
	}
	if _, err := os.Stat(filepath.Join(dir, "toolsets", ".tmp-crash")); !os.IsNotExist(err) {
		t.Fatalf("leftover temporary file still there: %v", err)
	}

	kept, err := second.CallResolvedTool(ctx, lookup("done", reg.Token, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(done, kept); diff != "" {
		t.Fatalf("recorded result after restart (-before +after):\n%s", diff)
	}
	resumed, err := second.CallResolvedTool(ctx, lookup("pending", reg.Token, "b"))
	if err != nil {
		t.Fatalf("pending call after restart: %v", err)
	}
	if string(resumed.Result) != `{"name":"record b"}` {
		t.Fatalf("pending call result = %s", resumed.Result)
	}
	_, err = second.CallResolvedTool(ctx, lookup("pending", reg.Token, "other"))
	wantCode(t, err, registry.CodeAdmissionConflict)
	if n := p.executions.Load(); n != 2 {
		t.Fatalf("provider ran %d calls, want 2", n)
	}
	_, err = second.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "billing"}})
	wantCode(t, err, registry.CodeToolsetNotFound)
}

func TestCorruptDataDirIsAnError(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		content string
		wantErr string
	}{
		{"malformed toolset", "toolsets/0123.json", "{", "registry store"},
		{"toolset in the wrong file", "toolsets/0123.json", "", "belongs in"},
		{"stray entry", "toolsets/notes.txt", "x", "unexpected entry notes.txt"},
		{"malformed generation", "generation", "[]", "registry store"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			p := newProvider(t)
			publish(t, svc, p, "1.0.0", "r1")
			content := tc.content
			if content == "" {
				entries, err := os.ReadDir(filepath.Join(dir, "toolsets"))
				if err != nil || len(entries) != 1 {
					t.Fatalf("toolsets dir: %v %v", entries, err)
				}
				data, err := os.ReadFile(filepath.Join(dir, "toolsets", entries[0].Name()))
				if err != nil {
					t.Fatal(err)
				}
				content = string(data)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.file)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("New on a corrupt store = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestTamperedRegistrationIsAnError(t *testing.T) {
	dir := t.TempDir()
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	publish(t, svc, newProvider(t), "1.0.0", "r1")
	entries, err := os.ReadDir(filepath.Join(dir, "toolsets"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("toolsets dir: %v %v", entries, err)
	}
	path := filepath.Join(dir, "toolsets", entries[0].Name())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(string(data), "Look up a record by id", "Look up anything", 1)
	if err := os.WriteFile(path, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err == nil || !strings.Contains(err.Error(), "does not match its content") {
		t.Fatalf("New on a tampered store = %v", err)
	}
}
