package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// bulkyToolset is a one-tool toolset whose record is about size bytes.
func bulkyToolset(name string, size int) tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: name, Description: strings.Repeat("d", size), Tools: []tools.ToolSchema{{
		Name: tools.Ident(name + ".get"), Description: "Get", Payload: json.RawMessage(`{"type":"object"}`),
	}}}
}

// TestCatalogLargerThanOneAnswer: a registry whose catalog is several
// times what one page may carry (64 KiB here, to keep the test small; the
// default is registry.MaxAnswerRecordBytes, and
// TestDefaultPagesFitTheClient reads a catalog larger than a client's
// limit) is still read whole by its client, list and resolution alike, in
// pages that each fit the page size.
func TestCatalogLargerThanOneAnswer(t *testing.T) {
	var pages, largest atomic.Int64
	svc, err := service.New(service.WithInsecure(), service.WithMaxPageBytes(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	h := svc.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &sizeRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		pages.Add(1)
		if n := rec.n; n > largest.Load() {
			largest.Store(n)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	const n = 9
	var refs []registry.ToolsetRef
	for i := range n {
		name := fmt.Sprintf("bulk%02d", i)
		if _, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: bulkyToolset(name, 20<<10), Revision: "r1", Endpoint: "http://127.0.0.1:1/"}); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, registry.ToolsetRef{Name: name})
	}
	client, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Toolsets) != n || pages.Load() < 3 {
		t.Fatalf("list read %d toolsets in %d answers, want %d in several", len(cat.Toolsets), pages.Load(), n)
	}
	pages.Store(0)
	res, err := client.ResolveToolsets(ctx, refs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Toolsets) != n || pages.Load() < 3 {
		t.Fatalf("resolution read %d toolsets in %d answers, want %d in several", len(res.Toolsets), pages.Load(), n)
	}
	if largest.Load() > 64<<10+4<<10 {
		t.Fatalf("an answer of %d bytes exceeds the page size", largest.Load())
	}
	// The catalog is remembered: the next list is one 304.
	pages.Store(0)
	if again, err := client.ListToolsets(ctx); err != nil || len(again.Toolsets) != n || pages.Load() != 1 {
		t.Fatalf("second list: %d toolsets in %d answers, %v", len(again.Toolsets), pages.Load(), err)
	}
}

// sizeRecorder counts the bytes of a response body.
type sizeRecorder struct {
	http.ResponseWriter
	n int64
}

func (s *sizeRecorder) Write(b []byte) (int, error) {
	s.n += int64(len(b))
	return s.ResponseWriter.Write(b)
}

// TestDefaultPagesFitTheClient: with the default page size, a catalog of
// more than a client's response limit is read whole by a client at that
// limit.
func TestDefaultPagesFitTheClient(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	for i := range 2 {
		if _, err := h.svc.Publish(ctx, &registry.PublishRequest{Toolset: bulkyToolset(fmt.Sprintf("bulk%d", i), 3<<20), Revision: "r1", Endpoint: "http://127.0.0.1:1/"}); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := h.client.ListToolsets(ctx)
	if err != nil || len(cat.Toolsets) != 2 {
		t.Fatalf("list of a 6 MiB catalog: %v", err)
	}
}

// TestChangeBetweenPages: a change between two pages of a read makes the
// read start again, so the client returns one generation's catalog, never
// a mix.
func TestChangeBetweenPages(t *testing.T) {
	svc, err := service.New(service.WithInsecure(), service.WithMaxPageBytes(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 6 {
		if _, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: bulkyToolset(fmt.Sprintf("bulk%d", i), 20<<10), Revision: "r1", Endpoint: "http://127.0.0.1:1/"}); err != nil {
			t.Fatal(err)
		}
	}
	var changed atomic.Bool
	h := svc.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("cursor") != "" && changed.CompareAndSwap(false, true) {
			if _, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: bulkyToolset("late", 10), Revision: "r1", Endpoint: "http://127.0.0.1:1/"}); err != nil {
				t.Error(err)
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	client, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := svc.ListToolsets(ctx)
	if !changed.Load() || len(cat.Toolsets) != 7 || cat.Generation != want.Generation {
		t.Fatalf("list across a change: %d toolsets at generation %d, want 7 at %d", len(cat.Toolsets), cat.Generation, want.Generation)
	}
}

// TestRecordsTooLargeToAnswer: a publish whose registration no answer
// could carry is refused before anything changes, even when the request
// limit admits it, and so is a call result of that size; the reply to the
// largest accepted publish fits what the client reads.
func TestRecordsTooLargeToAnswer(t *testing.T) {
	h := newHarness(t, service.WithMaxBodyBytes(2*registry.DefaultMaxBodyBytes))
	ctx := context.Background()
	_, err := h.client.Publish(ctx, &registry.PublishRequest{Toolset: bulkyToolset("huge", registry.MaxAnswerRecordBytes), Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
	if !errors.Is(err, registry.ErrRecordTooLarge) || !strings.Contains(err.Error(), "registry.MaxAnswerRecordBytes") {
		t.Fatalf("publish of a record too large to answer: %v", err)
	}
	if cat, err := h.client.ListToolsets(ctx); err != nil || len(cat.Toolsets) != 0 {
		t.Fatalf("refused publish changed the registry: %+v, %v", cat, err)
	}
	res, err := h.client.Publish(ctx, &registry.PublishRequest{Toolset: bulkyToolset("big", registry.MaxAnswerRecordBytes-1024), Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatalf("publish just under the record limit: %v", err)
	}
	if res.Registration.Toolset.Name != "big" {
		t.Fatalf("publish reply %+v", res.Registration.Toolset.Name)
	}

	p := newProvider(t)
	p.setAnswer(func(*registry.CallRequest) (json.RawMessage, error) {
		return json.RawMessage(`{"name":"` + strings.Repeat("<", registry.MaxAnswerRecordBytes/6) + `"}`), nil
	})
	reg := publish(t, h.client, p, "1.0.0", "r1")
	_, err = h.client.CallResolvedTool(ctx, lookup("c1", reg.Token, "a"))
	if !errors.Is(err, registry.ErrProviderUnavailable) || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("call with a result too large to answer: %v", err)
	}
}

// BenchmarkListIssueCatalog lists, over loopback HTTP with a client at its
// default response limit, the catalog the issue found unreadable: 2,400
// toolsets of 5 small tools, more than 4 MiB as one answer.
//
//	go test -run=^$ -bench=ListIssueCatalog -benchtime=5x -benchmem ./registry/service/
func BenchmarkListIssueCatalog(b *testing.B) {
	svc, err := service.New(service.WithInsecure())
	if err != nil {
		b.Fatal(err)
	}
	publishCatalog(b, svc, 2400, 5)
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	b.ReportAllocs()
	for b.Loop() {
		client, err := registry.NewClient(srv.URL)
		if err != nil {
			b.Fatal(err)
		}
		cat, err := client.ListToolsets(context.Background())
		if err != nil || len(cat.Toolsets) != 2400 {
			b.Fatalf("list: %d toolsets, %v", len(cat.Toolsets), err)
		}
	}
}
