//go:build redisha

package main

// "registry serve" on Redis Sentinel and on a Redis Cluster (build tag
// redisha, run by .ci/steps/registry-redis-ha): the servers are Debian's
// redis-server and redis-sentinel on loopback ports, started by the test
// in its temporary directory and killed when it ends.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// TestRegistryServeRedisHA serves a registry with --redis-sentinel and
// --redis-replicas 1 on a primary with one replica, and with
// --redis-cluster on three primaries: through each, a toolset is
// published, resolved and called, and /readyz says the store is reachable.
// With --redis-replicas 2, more than the primary has, the node does not
// start: the flag reaches the store.
func TestRegistryServeRedisHA(t *testing.T) {
	if _, err := exec.LookPath("redis-cli"); err != nil {
		realdeps.Absent(t, "redis-server", "redis-cli is not on PATH")
	}
	dir := t.TempDir()
	primary, replica, sentinel := haAddr(t), haAddr(t), haAddr(t)
	haRedis(t, primary, filepath.Join(dir, "primary"))
	ph, pp, _ := net.SplitHostPort(primary)
	haRedis(t, replica, filepath.Join(dir, "replica"), "--replicaof", ph, pp)
	haSentinel(t, sentinel, filepath.Join(dir, "sentinel"), primary)
	var shards []string
	for i := range 3 {
		a := haAddr(t)
		d := filepath.Join(dir, fmt.Sprint("shard", i))
		haRedis(t, a, d, "--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(d, "nodes.conf"))
		shards = append(shards, a)
	}
	if out, err := exec.Command("redis-cli", append(append([]string{"--cluster", "create"}, shards...), "--cluster-replicas", "0", "--cluster-yes")...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, out)
	}
	haWait(t, "the replica to sync and the cluster to be ok", func() bool {
		info, _ := redis.NewClient(&redis.Options{Addr: primary}).Info(context.Background(), "replication").Result()
		if !strings.Contains(info, "connected_slaves:1") || !strings.Contains(info, "state=online") {
			return false
		}
		for _, a := range shards {
			if info, _ := redis.NewClient(&redis.Options{Addr: a}).ClusterInfo(context.Background()).Result(); !strings.Contains(info, "cluster_state:ok") {
				return false
			}
		}
		return true
	})
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(context.Context, *registry.CallRequest) (json.RawMessage, error) {
		return json.RawMessage(`{"saved":true}`), nil
	}), 0))
	defer provider.Close()

	sentinelURL := "redis://" + sentinel + "/0?master_name=reg"
	clusterURL := "redis://" + shards[0] + "?addr=" + shards[1] + "&addr=" + shards[2]
	for _, tc := range []struct {
		name  string
		args  []string
		store string
	}{
		{"sentinel", []string{"--redis-sentinel", sentinelURL, "--redis-replicas", "1", "--redis-replica-timeout", "2s"}, `registry "ha" in Redis (Sentinel)`},
		{"cluster", []string{"--redis-cluster", clusterURL}, `registry "ha" in Redis Cluster`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, stdout, _, stop := startRegistryOutput(t, append(tc.args, "--name", "ha", "--allow-endpoint", provider.URL)...)
			defer stop()
			if !strings.Contains(stdout.String(), tc.store) {
				t.Fatalf("start-up line %q, want %q", stdout.String(), tc.store)
			}
			c, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			pub, err := c.Publish(ctx, &registry.PublishRequest{Toolset: haToolset(tc.name), Revision: "r1", Endpoint: provider.URL})
			if err != nil {
				t.Fatal(err)
			}
			cat, err := c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: tc.name}})
			if err != nil || len(cat.Toolsets) != 1 || cat.Toolsets[0].Token != pub.Registration.Token {
				t.Fatalf("resolve = %+v, %v; want token %s", cat, err, pub.Registration.Token)
			}
			res, err := c.CallResolvedTool(ctx, &registry.CallRequest{CallID: "c1", Tool: tools.Ident(tc.name + ".add"), Token: pub.Registration.Token, Payload: json.RawMessage(`{}`)})
			if err != nil || string(res.Result) != `{"saved":true}` {
				t.Fatalf("call = %+v, %v", res, err)
			}
			resp, err := http.Get(url + "/readyz")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if want := `{"status":"ready","store":"reachable","claims_held":0,"store_resets":0}`; resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != want {
				t.Fatalf("readyz: %d %s, want 200 %s", resp.StatusCode, body, want)
			}
		})
	}
	t.Run("more replicas than the primary has", func(t *testing.T) {
		// Even the first read of the registrations waits for 2 replicas.
		var stdout, stderr strings.Builder
		code := serveRegistryCommand(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--insecure",
			"--redis-sentinel", sentinelURL, "--name", "ha2", "--redis-replicas", "2", "--redis-replica-timeout", "100ms"}, &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "1 of 2 replicas confirmed within 100ms") {
			t.Fatalf("exit %d, stderr %q; want 1 and the replicas not confirming", code, stderr.String())
		}
	})
}

func haToolset(name string) tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: name, Description: "Notes", Tools: []tools.ToolSchema{
		{Name: tools.Ident(name + ".add"), Description: "Add a note", Payload: json.RawMessage(`{"type":"object"}`)},
	}}
}

// haAddr returns a loopback address no one listens on now.
func haAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// haRedis runs redis-server on addr with its data in dir, append-only
// with appendfsync always, until the test ends.
func haRedis(t *testing.T, addr, dir string, args ...string) {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	haStart(t, addr, dir, append([]string{"--bind", host, "--port", port, "--dir", dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "", "--logfile", filepath.Join(dir, "redis.log")}, args...), false)
}

// haSentinel runs a sentinel on addr monitoring the primary "reg" at
// primary, alone (quorum 1).
func haSentinel(t *testing.T, addr, dir, primary string) {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	ph, pp, _ := net.SplitHostPort(primary)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "sentinel.conf")
	text := fmt.Sprintf("bind %s\nport %s\ndir %s\nlogfile %s\nsentinel monitor reg %s %s 1\n", host, port, dir, filepath.Join(dir, "sentinel.log"), ph, pp)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	haStart(t, addr, dir, []string{conf, "--sentinel"}, true)
}

func haStart(t *testing.T, addr, dir string, args []string, sentinel bool) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		realdeps.Absent(t, "redis-server", "redis-server is not on PATH")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })
	opt := &redis.Options{Addr: addr, MaxRetries: -1}
	var ping func() error
	if sentinel {
		c := redis.NewSentinelClient(opt)
		t.Cleanup(func() { _ = c.Close() })
		ping = func() error { return c.Ping(context.Background()).Err() }
	} else {
		c := redis.NewClient(opt)
		t.Cleanup(func() { _ = c.Close() })
		ping = func() error { return c.Ping(context.Background()).Err() }
	}
	haWait(t, "redis "+addr+" to answer", func() bool { return ping() == nil })
}

// haWait polls ok until it holds, failing the test after 30 seconds.
func haWait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30s for %s", what)
		}
	}
}
