package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

var servingURL = regexp.MustCompile(`registry serving (https?://\S+)`)

// cliTestToken is the bearer token of the principal that startRegistry's
// credentials grant every scope.
const cliTestToken = "cli-test-0123456789abcdef0123456789abcdef"

// startRegistry runs "registry serve" on a free loopback port and returns
// its URL and a function that stops it and returns its exit code. Unless
// args say how to authenticate, the registry requires credentials from a
// file that gives cliTestToken every scope.
func startRegistry(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	url, _, _, stop := startRegistryOutput(t, args...)
	return url, stop
}

// startRegistryOutput is startRegistry with the command's standard output
// and error.
func startRegistryOutput(t *testing.T, args ...string) (string, *lockedBuffer, *lockedBuffer, func() int) {
	t.Helper()
	if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--credentials") || a == "--insecure" }) {
		path := filepath.Join(t.TempDir(), "credentials")
		if err := os.WriteFile(path, []byte("tests token:"+cliTestToken+" publish:* consume call inspect\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--credentials", path)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &lockedBuffer{}, &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- serveRegistryCommand(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), stdout, stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := servingURL.FindStringSubmatch(stdout.String()); m != nil {
			stop := func() int {
				cancel()
				return <-done
			}
			return m[1], stdout, stderr, stop
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

	url, stop := startRegistry(t, "--data", dir, "--allow-endpoint", provider.URL)
	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
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

	url, stop = startRegistry(t, "--data", dir, "--allow-endpoint", provider.URL)
	defer stop()
	client, err = registry.NewClient(url, registry.WithBearerToken(cliTestToken))
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
	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := client.ListToolsets(context.Background())
	if err != nil || len(cat.Toolsets) != 0 {
		t.Fatalf("in-memory registry lists %+v, %v", cat, err)
	}
}

// TestRegistryServeRequiresCredentials: by default the served registry
// refuses requests without a known bearer token, from a file or from the
// environment, and admits those with one.
func TestRegistryServeRequiresCredentials(t *testing.T) {
	t.Setenv("GOA_DISCOVERY_TEST_CREDENTIALS", "reader token:"+cliTestToken+" consume;other token:"+strings.Repeat("z", 40)+" call")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"credentials file", nil},
		{"credentials in the environment", []string{"--credentials-env", "GOA_DISCOVERY_TEST_CREDENTIALS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, stop := startRegistry(t, tc.args...)
			defer stop()
			for _, c := range []struct {
				token string
				want  error
			}{{"", registry.ErrUnauthenticated}, {strings.Repeat("y", 40), registry.ErrUnauthenticated}, {cliTestToken, nil}} {
				var opts []registry.ClientOption
				if c.token != "" {
					opts = append(opts, registry.WithBearerToken(c.token))
				}
				client, err := registry.NewClient(url, opts...)
				if err != nil {
					t.Fatal(err)
				}
				_, err = client.ListToolsets(context.Background())
				if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
					t.Fatalf("list with token %q: %v, want %v", c.token, err, c.want)
				}
			}
		})
	}
}

// TestRegistryServeEndpointRules: --allow-endpoint limits the endpoints a
// publisher may name, and the registry's own address is refused whatever
// the allowlist.
func TestRegistryServeEndpointRules(t *testing.T) {
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(context.Context, *registry.CallRequest) (json.RawMessage, error) {
		return json.RawMessage(`{}`), nil
	}), 0))
	defer provider.Close()
	url, stop := startRegistry(t, "--allow-endpoint", provider.URL+"/tools", "--allow-endpoint", "http://127.0.0.1:1")
	defer stop()
	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	self := strings.Replace(url, "127.0.0.1", "localhost", 1)
	for i, tc := range []struct {
		endpoint string
		want     error
	}{
		{provider.URL + "/tools/notes", nil},
		{provider.URL + "/admin", registry.ErrEndpointRefused},
		{provider.URL + "/tools/../admin", registry.ErrEndpointRefused},
		{provider.URL + "/tools/%2e%2e/admin", registry.ErrEndpointRefused},
		{strings.Replace(provider.URL, "127.0.0.1", "0x7f.1", 1) + "/tools/notes", registry.ErrInvalidRequest},
		{provider.URL + "/tools/a%2fb", registry.ErrInvalidRequest},
		{url + registry.PathCalls, registry.ErrEndpointRefused},
		{self + registry.PathCalls, registry.ErrEndpointRefused},
	} {
		_, err := client.Publish(context.Background(), &registry.PublishRequest{
			Toolset:  tools.ToolsetSchema{Name: "notes", Tools: []tools.ToolSchema{{Name: "notes.add", Description: "Add a note", Payload: json.RawMessage(`{"type":"object"}`)}}},
			Revision: fmt.Sprintf("r%d", i), Endpoint: tc.endpoint,
		})
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("publish to %s: %v, want %v", tc.endpoint, err, tc.want)
		}
	}
}

// TestRegistryServeAddressDefaults: without --allow-endpoint a registry
// refuses loopback and private providers, naming the flag that allows
// them; --insecure (on loopback) allows loopback providers; link-local,
// metadata and unspecified addresses are refused whatever the flags.
// Publishing dials nothing.
func TestRegistryServeAddressDefaults(t *testing.T) {
	cases := []struct {
		endpoint         string
		strict, insecure string // what the refusal says; "" accepted
	}{
		{"http://127.0.0.1:9000/tools", "--allow-endpoint", ""},
		{"http://localhost:9000/tools", "--allow-endpoint", ""},
		{"http://10.0.0.5/tools", "--allow-endpoint", "--allow-endpoint"},
		{"http://169.254.169.254/latest/meta-data", "never forwards", "never forwards"},
		{"http://[fd00:ec2::254]/latest", "never forwards", "never forwards"},
		{"http://0.0.0.0:9000/tools", "never forwards", "never forwards"},
		{"https://tools.example/v1", "", ""},
	}
	for _, mode := range []string{"strict", "insecure"} {
		var args []string
		var opts []registry.ClientOption
		if mode == "insecure" {
			args = append(args, "--insecure")
		} else {
			opts = append(opts, registry.WithBearerToken(cliTestToken))
		}
		url, stop := startRegistry(t, args...)
		client, err := registry.NewClient(url, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for i, tc := range cases {
			want := tc.strict
			if mode == "insecure" {
				want = tc.insecure
			}
			_, err := client.Publish(context.Background(), &registry.PublishRequest{
				Toolset:  tools.ToolsetSchema{Name: "notes", Tools: []tools.ToolSchema{{Name: "notes.add", Description: "Add a note", Payload: json.RawMessage(`{"type":"object"}`)}}},
				Revision: fmt.Sprintf("r%d", i), Endpoint: tc.endpoint,
			})
			switch {
			case want == "" && err != nil:
				t.Errorf("%s: publish to %s: %v, want accepted", mode, tc.endpoint, err)
			case want != "" && (!errors.Is(err, registry.ErrEndpointRefused) || !strings.Contains(err.Error(), want)):
				t.Errorf("%s: publish to %s: %v, want endpoint_refused saying %q", mode, tc.endpoint, err, want)
			}
		}
		if code := stop(); code != 0 {
			t.Fatalf("%s: registry exited %d", mode, code)
		}
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
		{"help", []string{"help"}, 0, "usage: goa-discovery-registry serve"},
		{"no addr", []string{"serve"}, 2, "--addr is required"},
		{"extra argument", []string{"serve", "--addr", ":0", "x"}, 2, "unexpected arguments"},
		{"bad max body", []string{"serve", "--addr", ":0", "--max-body", "0"}, 2, "--max-body must be positive"},
		{"negative retention", []string{"serve", "--addr", ":0", "--call-retention", "-1h"}, 2, "--call-retention must not be negative"},
		{"bad addr", []string{"serve", "--addr", "127.0.0.1:notaport", "--insecure"}, 1, "goa-discovery-registry:"},
		{"data is a file", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--data", "registry_test.go"}, 1, "registry store"},
		{"no credentials", []string{"serve", "--addr", "127.0.0.1:0"}, 2, "credentials are required"},
		{"insecure on every interface", []string{"serve", "--addr", ":0", "--insecure"}, 2, `--insecure is only for a trusted loopback address, not ":0"`},
		{"insecure on a public address", []string{"serve", "--addr", "192.0.2.1:80", "--insecure"}, 2, "only for a trusted loopback"},
		{"insecure with credentials", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--credentials", "x"}, 2, "cannot be given with --credentials"},
		{"file and environment", []string{"serve", "--addr", "127.0.0.1:0", "--credentials", "x", "--credentials-env", "Y"}, 2, "not both"},
		{"certificate without key", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--tls-cert", "c.pem"}, 2, "--tls-cert and --tls-key go together"},
		{"client CA without TLS", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--client-ca", "ca.pem"}, 2, "--client-ca needs --tls-cert"},
		{"bad max conns", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--max-conns", "0"}, 2, "--max-conns must be positive"},
		{"share above the connections", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--max-conns", "8", "--max-requests-per-principal", "9"}, 2, "--max-requests-per-principal must be between 0 and --max-conns (8)"},
		{"missing credentials file", []string{"serve", "--addr", "127.0.0.1:0", "--credentials", "no-such-file"}, 1, "credentials: stat no-such-file"},
		{"bad allowed endpoint", []string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--allow-endpoint", "ftp://x"}, 1, "endpoint allowlist"},
		{"empty credentials variable", []string{"serve", "--addr", "127.0.0.1:0", "--credentials-env", "GOA_DISCOVERY_TEST_UNSET_CREDENTIALS"}, 1, "the variable is empty or unset"},
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
