package registry

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// node is a registry node on loopback that answers every resolution with
// the records toolset, or with toolset_not_found while missing is set.
type node struct {
	server  *httptest.Server
	hits    atomic.Int64
	missing atomic.Bool
}

func newNode(t *testing.T) *node {
	t.Helper()
	n := &node{}
	rt := resolvedRecords(t, "r1")
	n.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.hits.Add(1)
		if n.missing.Load() {
			WriteError(w, Errorf(CodeToolsetNotFound, "toolset %q is not registered", "records"))
			return
		}
		WriteJSON(w, http.StatusOK, &Catalog{Generation: 1, Toolsets: []ResolvedToolset{rt}})
	}))
	t.Cleanup(n.server.Close)
	return n
}

// downURL is the URL of a loopback port nothing listens on.
func downURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func TestClientFailover(t *testing.T) {
	ctx := context.Background()
	refs := []ToolsetRef{{Name: "records"}}
	a, b := newNode(t), newNode(t)
	down := downURL(t)

	c, err := NewClient(down, WithFailover(a.server.URL, b.server.URL))
	if err != nil {
		t.Fatal(err)
	}
	// The first node is down: the request reaches the next one, which is
	// tried first from then on.
	for range 3 {
		if _, err := c.ResolveToolsets(ctx, refs); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Nodes()[0]; got != a.server.URL || a.hits.Load() != 3 || b.hits.Load() != 0 {
		t.Fatalf("first node %s, hits %d and %d; want %s, 3 and 0", got, a.hits.Load(), b.hits.Load(), a.server.URL)
	}
	// An error answer is the node's decision: it is not sent elsewhere.
	a.missing.Store(true)
	_, err = c.ResolveToolsets(ctx, refs)
	if !errors.Is(err, ErrToolsetNotFound) || b.hits.Load() != 0 {
		t.Fatalf("error answer = %v with %d hits on the next node; want toolset_not_found and none", err, b.hits.Load())
	}
	// a goes down too: b answers.
	a.server.Close()
	if _, err := c.ResolveToolsets(ctx, refs); err != nil || b.hits.Load() != 1 {
		t.Fatalf("with two nodes down = %v, %d hits on the last; want an answer from it", err, b.hits.Load())
	}
	// Every node down: unreachable, naming each.
	b.server.Close()
	_, err = c.ResolveToolsets(ctx, refs)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), down) || !strings.Contains(err.Error(), a.server.URL) {
		t.Fatalf("every node down = %v; want unreachable naming each node", err)
	}
}

func TestClientFailoverRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://127.0.0.1:1/?q=1"} {
		if _, err := NewClient("http://127.0.0.1:1", WithFailover(u)); err == nil {
			t.Errorf("NewClient accepted failover URL %q", u)
		}
	}
}
