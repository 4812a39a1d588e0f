package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

// TestRegistryServeRechecksDurability: a CONFIG SET that makes Redis lose
// acknowledged changes on a restart, made after "registry serve --redis"
// started, is logged at WARN and turns the durable gauge to 0 within
// durabilityCheck; set back, it is logged at INFO and the gauge is 1 again.
// On the code before, the settings were read at start only.
func TestRegistryServeRechecksDurability(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		realdeps.Absent(t, "redis-server", "redis-server is not on PATH")
	}
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	host, port, _ := net.SplitHostPort(addr)
	srv := exec.Command(bin, "--bind", host, "--port", port, "--dir", dir, "--save", "", "--logfile", filepath.Join(dir, "redis.log"), "--appendonly", "yes", "--appendfsync", "always")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	admin := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer admin.Close()
	ctx := context.Background()
	for deadline := time.Now().Add(10 * time.Second); admin.Ping(ctx).Err() != nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("redis-server did not start")
		}
	}
	_, stdout, stderr, stop := startRegistryOutput(t, "--redis", "redis://"+addr, "--name", "durability", "--metrics-addr", "127.0.0.1:0")
	defer stop()
	m := metricsURL.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no metrics address in %q", stdout.String())
	}
	gauge := func(want string) bool {
		resp, err := http.Get(m[1])
		if err != nil {
			t.Fatal(err)
		}
		metrics, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return regexp.MustCompile(`(?m)^goa_discovery_registry_store_durable(\{[^}]*\})? ` + want + `$`).Match(metrics)
	}
	if !gauge("1") {
		t.Fatal("durable gauge is not 1 at start, on a Redis with appendfsync always")
	}
	for _, step := range []struct{ value, gauge, log string }{
		{"everysec", "0", "level=WARN msg=\"registry: Redis runs with appendfsync everysec, not always: a restart of Redis loses changes it acknowledged; set appendfsync always, or --redis-replicas\""},
		{"always", "1", "level=INFO msg=\"registry: Redis's persistence settings keep acknowledged changes across a restart again\""},
	} {
		if err := admin.ConfigSet(ctx, "appendfsync", step.value).Err(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(3 * durabilityCheck)
		for !gauge(step.gauge) || !strings.Contains(stderr.String(), step.log) {
			if time.Now().After(deadline) {
				t.Fatalf("after CONFIG SET appendfsync %s, no durable gauge %s and log line %q within %v:\n%s", step.value, step.gauge, step.log, 3*durabilityCheck, stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
