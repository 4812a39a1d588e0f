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

// TestRegistryServeWarnsOfALosingRedis: "registry serve --redis" on a
// redis-server (started by the test) whose persistence loses acknowledged
// changes on a restart logs a WARN naming the setting, and its metrics
// have the durable gauge at 0; on one with appendonly yes and appendfsync
// always it logs none and the gauge is 1.
func TestRegistryServeWarnsOfALosingRedis(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		realdeps.Absent(t, "redis-server", "redis-server is not on PATH")
	}
	cases := []struct {
		name string
		args []string
		warn string // "" for none
	}{
		{"no append-only file", []string{"--appendonly", "no"}, "level=WARN msg=\"registry: Redis runs with appendonly no, not yes: a restart of Redis loses changes it acknowledged; set appendonly yes, or --redis-replicas\" setting=appendonly value=no want=yes"},
		{"synced every second", []string{"--appendonly", "yes", "--appendfsync", "everysec"}, "level=WARN msg=\"registry: Redis runs with appendfsync everysec, not always: a restart of Redis loses changes it acknowledged; set appendfsync always, or --redis-replicas\" setting=appendfsync value=everysec want=always"},
		{"synced always", []string{"--appendonly", "yes", "--appendfsync", "always"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			_ = ln.Close()
			host, port, _ := net.SplitHostPort(addr)
			srv := exec.Command(bin, append([]string{"--bind", host, "--port", port, "--dir", dir, "--save", "", "--logfile", filepath.Join(dir, "redis.log")}, tc.args...)...)
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
			ping := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
			defer ping.Close()
			for deadline := time.Now().Add(10 * time.Second); ping.Ping(context.Background()).Err() != nil; time.Sleep(10 * time.Millisecond) {
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
			resp, err := http.Get(m[1])
			if err != nil {
				t.Fatal(err)
			}
			metrics, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := "1"
			if tc.warn != "" {
				want = "0"
			}
			if !regexp.MustCompile(`(?m)^goa_discovery_registry_store_durable(\{[^}]*\})? ` + want + `$`).Match(metrics) {
				t.Errorf("metrics have no goa_discovery_registry_store_durable %s:\n%s", want, metrics)
			}
			log := stderr.String()
			if tc.warn == "" && strings.Contains(log, "level=WARN") || tc.warn != "" && !strings.Contains(log, tc.warn) {
				t.Errorf("log:\n%s\nwant the warning %q", log, tc.warn)
			}
		})
	}
}
