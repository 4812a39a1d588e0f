package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestRegistryClusterFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		code    int
		errPart string
	}{
		{"redis without name", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1"}, 2, "--name and a Redis store (--redis, --redis-sentinel or --redis-cluster) go together"},
		{"sentinel without name", []string{"serve", "--addr", ":0", "--redis-sentinel", "redis://127.0.0.1:1?master_name=m"}, 2, "--name and a Redis store"},
		{"name without redis", []string{"serve", "--addr", ":0", "--name", "r"}, 2, "--name and a Redis store"},
		{"redis and data", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--data", "d"}, 2, "and --data exclude each other"},
		{"cluster and data", []string{"serve", "--addr", ":0", "--redis-cluster", "redis://127.0.0.1:1", "--name", "r", "--data", "d"}, 2, "and --data exclude each other"},
		{"two stores", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--redis-cluster", "redis://127.0.0.1:2", "--name", "r"}, 2, "--redis, --redis-sentinel and --redis-cluster exclude each other"},
		{"lease without redis", []string{"serve", "--addr", ":0", "--provider-lease", "1s"}, 2, "--provider-lease must not be negative and needs a Redis store"},
		{"negative lease", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--provider-lease", "-1s"}, 2, "--provider-lease must not be negative"},
		{"staleness without redis", []string{"serve", "--addr", ":0", "--redis-max-staleness", "1s"}, 2, "--redis-max-staleness needs a Redis store"},
		{"replicas without redis", []string{"serve", "--addr", ":0", "--redis-replicas", "1"}, 2, "--redis-replicas needs a Redis store"},
		{"negative staleness", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--redis-max-staleness", "-1s"}, 2, "--redis-max-staleness must not be negative, got -1s"},
		{"negative replicas", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--redis-replicas", "-1"}, 2, "--redis-replicas must not be negative, got -1"},
		{"replicas on a cluster", []string{"serve", "--addr", ":0", "--redis-cluster", "redis://127.0.0.1:1", "--name", "r", "--redis-replicas", "1"}, 2, "--redis-replicas needs one primary"},
		{"replica timeout without replicas", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--redis-replica-timeout", "2s"}, 2, "--redis-replica-timeout needs --redis-replicas"},
		{"zero replica timeout", []string{"serve", "--addr", ":0", "--redis-sentinel", "redis://127.0.0.1:1?master_name=m", "--name", "r", "--redis-replicas", "1", "--redis-replica-timeout", "0s"}, 2, "--redis-replica-timeout must be positive, got 0s"},
		{"bad redis URL", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--redis", "http://x", "--name", "r"}, 1, "registry store redis: URL"},
		{"sentinel URL without primary", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--redis-sentinel", "redis://127.0.0.1:1", "--name", "r"}, 1, "Sentinel URL names no primary: add ?master_name=NAME"},
		{"bad cluster URL", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--redis-cluster", "redis://127.0.0.1:1?pool=3", "--name", "r"}, 1, "registry store redis: Cluster URL"},
		{"bad name", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--redis", "redis://127.0.0.1:1", "--name", "{r}"}, 1, "registry name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := serveRegistryCommand(context.Background(), tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.errPart) {
				t.Fatalf("exit %d, stderr %q; want %d containing %q", code, stderr.String(), tc.code, tc.errPart)
			}
		})
	}
}

// Two "registry serve" nodes with the same --name on one Redis serve one
// registry; a node with another name serves another.
func TestRegistryServeCluster(t *testing.T) {
	m := miniredis.RunT(t)
	ctx := context.Background()
	redisURL := "redis://" + m.Addr()
	var clients []*registry.Client
	for _, name := range []string{"one", "one", "two"} {
		url, stop := startRegistry(t, "--redis", redisURL, "--name", name, "--allow-endpoint", "http://127.0.0.1:1/")
		defer stop()
		c, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	ts := tools.ToolsetSchema{Name: "notes", Description: "Notes", Tools: []tools.ToolSchema{{Name: "notes.get", Description: "Get a note", Payload: []byte(`{"type":"object"}`)}}}
	pub, err := clients[0].Publish(ctx, &registry.PublishRequest{Toolset: ts, Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := clients[1].ResolveToolsets(ctx, []registry.ToolsetRef{{Name: "notes"}})
	if err != nil || cat.Toolsets[0].Token != pub.Registration.Token {
		t.Fatalf("resolve through the second node = %+v, %v; want token %s", cat, err, pub.Registration.Token)
	}
	if list, err := clients[2].ListToolsets(ctx); err != nil || len(list.Toolsets) != 0 {
		t.Fatalf("registry two lists %+v, %v; want nothing", list, err)
	}
}

// --redis-max-staleness reaches the store: with 0 every read asks Redis;
// with a bound, reads on a node whose watch is confirmed ask nothing.
func TestRegistryServeMaxStaleness(t *testing.T) {
	cases := []struct {
		staleness string
		asks      bool
	}{
		{"0s", true},
		{"4s", false},
	}
	for _, tc := range cases {
		t.Run(tc.staleness, func(t *testing.T) {
			m := miniredis.RunT(t)
			url, stop := startRegistry(t, "--redis", "redis://"+m.Addr(), "--name", "r", "--redis-max-staleness", tc.staleness)
			defer stop()
			c, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			reads := func() int {
				before := m.CommandCount()
				for range 10 {
					if _, err := c.ListToolsets(ctx); err != nil {
						t.Fatal(err)
					}
				}
				return m.CommandCount() - before
			}
			if tc.asks {
				if n := reads(); n < 10 {
					t.Fatalf("10 reads with --redis-max-staleness 0 made %d Redis commands, want one each at least", n)
				}
				return
			}
			deadline := time.Now().Add(10 * time.Second)
			for reads() != 0 {
				if time.Now().After(deadline) {
					t.Fatal("reads kept asking Redis with --redis-max-staleness 4s")
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}
