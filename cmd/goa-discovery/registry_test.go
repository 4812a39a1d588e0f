package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of a
// serving command and the reads of its test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingURL = regexp.MustCompile(`registry serving (http://\S+)`)

// startRegistry runs "registry serve" on a free loopback port and returns
// its URL and a function that stops it and returns its exit code.
func startRegistry(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- serveRegistryCommand(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := servingURL.FindStringSubmatch(stdout.String()); m != nil {
			stop := func() int {
				cancel()
				return <-done
			}
			return m[1], stop
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("registry exited with %d: %s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("registry did not start: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRegistryServeRestartWithData(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		return json.RawMessage(`{"echo":` + string(call.Payload) + `}`), nil
	}), 0))
	defer provider.Close()

	url, stop := startRegistry(t, "--data", dir)
	client, err := registry.NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := client.Publish(ctx, &registry.PublishRequest{
		Toolset: tools.ToolsetSchema{Name: "notes", Version: "1.0.0", Tools: []tools.ToolSchema{{
			Name: "notes.add", Description: "Add a note", Payload: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		}}},
		Revision: "build-1",
		Endpoint: provider.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.CallResolvedTool(ctx, &registry.CallRequest{CallID: "n1", Tool: "notes.add", Token: pub.Registration.Token, Payload: json.RawMessage(`{"text":"hi"}`)})
	if err != nil {
		t.Fatal(err)
	}
	before, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if code := stop(); code != 0 {
		t.Fatalf("registry exited with %d", code)
	}
	if _, err := client.ListToolsets(ctx); err == nil {
		t.Fatal("stopped registry still answers")
	}

	url, stop = startRegistry(t, "--data", dir)
	defer stop()
	client, err = registry.NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	after, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before.Toolsets, after.Toolsets); diff != "" {
		t.Fatalf("registrations after restart (-before +after):\n%s", diff)
	}
	again, err := client.CallResolvedTool(ctx, &registry.CallRequest{CallID: "n1", Tool: "notes.add", Token: pub.Registration.Token, Payload: json.RawMessage(`{"text":"hi"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, again); diff != "" {
		t.Fatalf("recorded call after restart (-before +after):\n%s", diff)
	}
}

func TestRegistryServeInMemoryStartsEmpty(t *testing.T) {
	url, stop := startRegistry(t)
	defer stop()
	client, err := registry.NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := client.ListToolsets(context.Background())
	if err != nil || len(cat.Toolsets) != 0 {
		t.Fatalf("in-memory registry lists %+v, %v", cat, err)
	}
}

func TestRegistryFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		code    int
		errPart string
	}{
		{"no subcommand", nil, 2, "missing subcommand: serve"},
		{"unknown subcommand", []string{"start"}, 2, `unknown subcommand "start"`},
		{"help", []string{"help"}, 0, "usage: goa-discovery registry serve"},
		{"no addr", []string{"serve"}, 2, "--addr is required"},
		{"extra argument", []string{"serve", "--addr", ":0", "x"}, 2, "unexpected arguments"},
		{"bad max body", []string{"serve", "--addr", ":0", "--max-body", "0"}, 2, "--max-body must be positive"},
		{"negative retention", []string{"serve", "--addr", ":0", "--call-retention", "-1h"}, 2, "--call-retention must not be negative"},
		{"bad addr", []string{"serve", "--addr", "127.0.0.1:notaport"}, 1, "goa-discovery registry:"},
		{"data is a file", []string{"serve", "--addr", "127.0.0.1:0", "--data", "registry_test.go"}, 1, "registry store"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			code := serveRegistryCommand(ctx, tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.errPart) {
				t.Fatalf("exit %d, stderr %q; want %d containing %q", code, stderr.String(), tc.code, tc.errPart)
			}
		})
	}
}
