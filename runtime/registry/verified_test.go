package registry

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClientRemembersCheckedToolsetsSafely(t *testing.T) {
	good := resolvedRecords(t, "r1")
	tampered := good
	tampered.Toolset.Description = "changed after fingerprinting"
	var mu sync.Mutex
	body := Catalog{Generation: 1, Toolsets: []ResolvedToolset{good}}
	c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		WriteJSON(w, http.StatusOK, body)
	})
	serve := func(cat Catalog) {
		mu.Lock()
		defer mu.Unlock()
		body = cat
	}
	ctx := context.Background()

	first, err := c.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The caller owns what it gets: changing it changes no later read.
	first.Toolsets[0].Toolset.Tools[0].Payload[0] = 'X'
	first.Toolsets[0].Toolset.Name = "mutated"
	second, err := c.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(good, second.Toolsets[0]); diff != "" {
		t.Fatalf("remembered toolset changed (-want +got):\n%s", diff)
	}
	resolved, err := c.ResolveToolsets(ctx, []ToolsetRef{{Name: "records"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(good, resolved.Toolsets[0]); diff != "" {
		t.Fatalf("resolved toolset (-want +got):\n%s", diff)
	}

	// Other bytes under a remembered token are checked in full.
	serve(Catalog{Generation: 2, Toolsets: []ResolvedToolset{tampered}})
	if _, err := c.ListToolsets(ctx); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("tampered toolset under a remembered token = %v, want ErrBadResponse", err)
	}
	// A whole-registry read forgets what the registry no longer holds.
	serve(Catalog{Generation: 3, Toolsets: []ResolvedToolset{}})
	if cat, err := c.ListToolsets(ctx); err != nil || len(cat.Toolsets) != 0 {
		t.Fatalf("empty registry = %+v, %v", cat, err)
	}
	c.verified.mu.Lock()
	n := len(c.verified.byDigest)
	c.verified.mu.Unlock()
	if n != 0 {
		t.Fatalf("client remembers %d toolsets of an empty registry", n)
	}
}

func BenchmarkDecodeCatalog(b *testing.B) {
	ts := resolvedRecords(b, "r1")
	cat := Catalog{Generation: 1}
	for i := range 100 {
		one := ts
		one.Toolset.Name = "ts" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		one.Toolset.Tools = nil
		for j := range 100 {
			tool := ts.Toolset.Tools[0]
			tool.Name = tool.Name[:0] + toIdent(one.Toolset.Name, j)
			one.Toolset.Tools = append(one.Toolset.Tools, tool)
		}
		fp, err := fingerprintFor(&one)
		if err != nil {
			b.Fatal(err)
		}
		one.Fingerprint, one.Token = fp, NewToken(fp, one.Revision)
		cat.Toolsets = append(cat.Toolsets, one)
	}
	data, err := json.Marshal(cat)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("first-read", func(b *testing.B) {
		for b.Loop() {
			var v verifiedSet
			if _, err := v.decodeCatalog(data, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		var v verifiedSet
		if _, err := v.decodeCatalog(data, nil); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.decodeCatalog(data, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestClientListNotModified(t *testing.T) {
	good := resolvedRecords(t, "r1")
	var sawTag []string
	var mu sync.Mutex
	c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sawTag = append(sawTag, r.Header.Get("If-None-Match"))
		n := len(sawTag)
		mu.Unlock()
		w.Header().Set("ETag", `"i-1"`)
		if n > 1 {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		WriteJSON(w, http.StatusOK, Catalog{Generation: 1, Toolsets: []ResolvedToolset{good}})
	})
	ctx := context.Background()
	first, err := c.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first.Toolsets[0].Toolset.Tags = append(first.Toolsets[0].Toolset.Tags, "mutated")
	second, err := c.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&Catalog{Generation: 1, Toolsets: []ResolvedToolset{good}}, second); diff != "" {
		t.Fatalf("catalog after 304 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", `"i-1"`}, sawTag); diff != "" {
		t.Fatalf("If-None-Match headers sent (-want +got):\n%s", diff)
	}

	fresh := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotModified)
	})
	if _, err := fresh.ListToolsets(ctx); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("304 to a first read = %v, want ErrBadResponse", err)
	}
}
