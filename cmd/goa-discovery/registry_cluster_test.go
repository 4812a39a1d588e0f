package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

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
		{"redis without name", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1"}, 2, "--redis and --name go together"},
		{"name without redis", []string{"serve", "--addr", ":0", "--name", "r"}, 2, "--redis and --name go together"},
		{"redis and data", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--data", "d"}, 2, "--redis and --data exclude each other"},
		{"lease without redis", []string{"serve", "--addr", ":0", "--provider-lease", "1s"}, 2, "--provider-lease must not be negative and needs --redis"},
		{"negative lease", []string{"serve", "--addr", ":0", "--redis", "redis://127.0.0.1:1", "--name", "r", "--provider-lease", "-1s"}, 2, "--provider-lease must not be negative"},
		{"bad redis URL", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--redis", "http://x", "--name", "r"}, 1, "registry store redis: URL"},
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
