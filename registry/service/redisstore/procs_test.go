package redisstore_test

// Processes of the cluster fault suite: registry nodes (this test binary,
// run again as a node on the Redis store, the way "registry serve --redis"
// runs one) and a redis-server, each on a loopback port it keeps across
// restarts, so that clients given the nodes' URLs reach a restarted one.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// Environment of a node process: the Redis URL, the registry name and the
// address to listen on.
const (
	nodeRedisEnv = "GOA_DISCOVERY_NODE_REDIS"
	nodeNameEnv  = "GOA_DISCOVERY_NODE_NAME"
	nodeAddrEnv  = "GOA_DISCOVERY_NODE_ADDR"
)

func TestMain(m *testing.M) {
	if url := os.Getenv(nodeRedisEnv); url != "" {
		os.Exit(serveNode(url, os.Getenv(nodeNameEnv), os.Getenv(nodeAddrEnv)))
	}
	os.Exit(m.Run())
}

// serveNode serves registry name on the Redis at url until killed.
func serveNode(url, name, addr string) int {
	st, err := redisstore.Open(context.Background(), url, name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st), service.WithInsecure())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("registry serving http://%s\n", ln.Addr())
	srv := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stderr, srv.Serve(ln))
	return 1
}

// freeAddr returns a loopback address no one listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// proc is a child process that can be killed and started again.
type proc struct {
	t      testing.TB
	name   string
	start  func() *exec.Cmd
	ready  func() error
	cmd    *exec.Cmd
	stderr *strings.Builder
}

// run starts the process and waits until ready reports it serves.
func (p *proc) run() {
	p.t.Helper()
	p.cmd = p.start()
	p.stderr = new(strings.Builder)
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		p.t.Fatalf("start %s: %v", p.name, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := p.ready()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			p.kill()
			p.t.Fatalf("%s did not start: %v: %s", p.name, err, p.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// signal sends sig to the process.
func (p *proc) signal(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatalf("signal %s: %v", p.name, err)
	}
}

// kill sends SIGKILL and waits for the process to end.
func (p *proc) kill() {
	if p.cmd == nil || p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// startRedis runs a redis-server on a loopback port with its data in a
// directory of the test, append-only with appendfsync always, as .ci/run
// runs one, and returns it and its URL.
func startRedis(t testing.TB) (*proc, string) {
	t.Helper()
	return startRedisWith(t, "--appendonly", "yes", "--appendfsync", "always")
}

// startRedisWith runs a redis-server as startRedis does, with args for
// its persistence instead; it keeps no snapshot.
func startRedisWith(t testing.TB, args ...string) (*proc, string) {
	t.Helper()
	bin := redisServer(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	host, port, _ := net.SplitHostPort(addr)
	url := "redis://" + addr + "/0"
	opt, _ := redis.ParseURL(url)
	ping := redis.NewClient(opt)
	t.Cleanup(func() { _ = ping.Close() })
	p := &proc{t: t, name: "redis-server", start: func() *exec.Cmd {
		return exec.Command(bin, append([]string{"--bind", host, "--port", port, "--dir", dir,
			"--save", "", "--logfile", filepath.Join(dir, "redis.log")}, args...)...)
	}, ready: func() error {
		return ping.Ping(context.Background()).Err()
	}}
	p.run()
	t.Cleanup(p.kill)
	return p, url
}

// startNode runs a registry node of registry name on the Redis at url,
// listening on a loopback port it keeps across restarts.
func startNode(t testing.TB, url, name string) (*proc, string) {
	t.Helper()
	addr := freeAddr(t)
	base := "http://" + addr
	p := &proc{t: t, name: "registry node " + addr}
	p.start = func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		// A node fails a request fast while Redis is down, rather than
		// retrying the connection on the request's time.
		cmd.Env = append(os.Environ(), nodeRedisEnv+"="+url+"?max_retries=-1&dial_timeout=200ms", nodeNameEnv+"="+name, nodeAddrEnv+"="+addr)
		return cmd
	}
	p.ready = func() error {
		resp, err := http.Get(base + "/v1/toolsets")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	p.run()
	t.Cleanup(p.kill)
	return p, base
}
