package service_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
)

func TestPublishResolveAndPin(t *testing.T) {
	clock := &frozenClock{now: time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)}
	h := newHarness(t, service.WithClock(clock.Now))
	p := newProvider(t)
	ctx := context.Background()

	empty, err := h.client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(empty.Toolsets) != 0 {
		t.Fatalf("empty registry lists %d toolsets", len(empty.Toolsets))
	}

	ts := recordsToolset("1.2.3")
	fp, err := contract.Fingerprint(&ts)
	if err != nil {
		t.Fatal(err)
	}
	req := &registry.PublishRequest{Toolset: ts, Fingerprint: fp, Revision: "deploy-1", Endpoint: p.server.URL}
	first, err := h.client.Publish(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != registry.Published || first.Registration.Token != registry.NewToken(fp, "deploy-1") || first.Registration.Fingerprint != fp {
		t.Fatalf("first publish = %+v", first)
	}
	if !first.Registration.Toolset.RegisteredAt.Equal(clock.Now()) {
		t.Fatalf("registered at %v, want %v", first.Registration.Toolset.RegisteredAt, clock.Now())
	}

	clock.Advance(time.Hour)
	again, err := h.client.Publish(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if again.Status != registry.Unchanged {
		t.Fatalf("republish status %s, want %s", again.Status, registry.Unchanged)
	}
	if diff := cmp.Diff(first.Registration, again.Registration); diff != "" {
		t.Fatalf("republish changed the registration (-first +again):\n%s", diff)
	}

	list, err := h.client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if list.Generation != empty.Generation+1 {
		t.Fatalf("generation %d after one change from %d", list.Generation, empty.Generation)
	}
	if diff := cmp.Diff([]registry.ResolvedToolset{first.Registration.Resolved()}, list.Toolsets); diff != "" {
		t.Fatalf("list (-want +got):\n%s", diff)
	}

	cases := []struct {
		name string
		refs []registry.ToolsetRef
		code registry.Code
	}{
		{"by name", []registry.ToolsetRef{{Name: "records"}}, ""},
		{"pinned", []registry.ToolsetRef{{Name: "records", Version: "1.2.3"}}, ""},
		{"pin mismatch", []registry.ToolsetRef{{Name: "records", Version: "1.2.2"}}, registry.CodeVersionMismatch},
		{"missing", []registry.ToolsetRef{{Name: "records"}, {Name: "billing"}}, registry.CodeToolsetNotFound},
		{"named twice", []registry.ToolsetRef{{Name: "records"}, {Name: "records"}}, registry.CodeInvalidRequest},
		{"none", nil, registry.CodeInvalidRequest},
		{"bad name", []registry.ToolsetRef{{Name: "re.cords"}}, registry.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, consumer := range []registry.Consumer{h.client, h.svc} {
				cat, err := consumer.ResolveToolsets(ctx, tc.refs)
				if tc.code != "" {
					wantCode(t, err, tc.code)
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(list, cat); diff != "" {
					t.Fatalf("resolution (-list +resolved):\n%s", diff)
				}
			}
		})
	}
}

func TestPinChecksTheCurrentVersion(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	ctx := context.Background()
	for _, v := range []string{"1.0.0", "2.0.0"} {
		publish(t, h.client, p, v, "r"+v)
		// Every list answer reflects the latest change.
		cat, err := h.client.ListToolsets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := cat.Toolsets[0].Toolset.Version; got != v {
			t.Fatalf("list after publishing %s shows version %s", v, got)
		}
	}
	_, err := h.client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records", Version: "1.0.0"}})
	wantCode(t, err, registry.CodeVersionMismatch)
	if err == nil || !strings.Contains(err.Error(), `pinned version "1.0.0", the registered version is "2.0.0"`) {
		t.Fatalf("error %v does not name both versions", err)
	}
	ts := recordsToolset("")
	if _, err := h.client.Publish(ctx, &registry.PublishRequest{Toolset: ts, Revision: "r3", Endpoint: p.server.URL}); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records", Version: "2.0.0"}})
	wantCode(t, err, registry.CodeVersionMismatch)
}

func TestPublishConflictsAndWithdraw(t *testing.T) {
	h := newHarness(t)
	p := newProvider(t)
	other := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")

	_, err := h.client.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: other.server.URL})
	wantCode(t, err, registry.CodeRegistrationConflict)

	err = h.client.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: registry.NewToken(reg.Fingerprint, "r0")})
	wantCode(t, err, registry.CodeTokenMismatch)
	err = h.client.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "billing", Token: reg.Token})
	wantCode(t, err, registry.CodeToolsetNotFound)

	if err := h.client.Withdraw(ctx, &registry.WithdrawRequest{Toolset: "records", Token: reg.Token}); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "records"}})
	wantCode(t, err, registry.CodeToolsetNotFound)
	_, err = h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "r1"))
	wantCode(t, err, registry.CodeCallNotAdmitted)
}

func TestListEntityTags(t *testing.T) {
	h := newHarness(t)
	other := newHarness(t)
	p := newProvider(t)
	get := func(h *harness, tag string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, h.server.URL+registry.PathToolsets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tag != "" {
			req.Header.Set("If-None-Match", tag)
		}
		resp, err := h.server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("ETag")
	}
	status, tag := get(h, "")
	if status != http.StatusOK || tag == "" {
		t.Fatalf("first list: %d, ETag %q", status, tag)
	}
	if status, _ := get(h, tag); status != http.StatusNotModified {
		t.Fatalf("list with the current tag: %d, want 304", status)
	}
	if _, otherTag := get(other, ""); otherTag == tag {
		t.Fatalf("two registries at one generation share the tag %s", tag)
	}
	publish(t, h.client, p, "1.0.0", "r1")
	status, newTag := get(h, tag)
	if status != http.StatusOK || newTag == tag {
		t.Fatalf("list after a change with the old tag: %d, tag %q", status, newTag)
	}
}
