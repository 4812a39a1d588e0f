package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		addr     string // the address parse returns
		db       string
		refusal  string // in the error, when parse refuses
		loopback bool
	}{
		{args: nil, addr: "127.0.0.1:7233"},
		{args: []string{"--addr", "localhost:7300"}, addr: "127.0.0.1:7300"},
		{args: []string{"--addr", "[::1]:7233"}, addr: "[::1]:7233"},
		{args: []string{"--addr", "127.0.0.1:0", "--db", "t.db"}, addr: "127.0.0.1:0", db: "t.db"},
		{args: []string{"--addr", "0.0.0.0:7233"}, refusal: `--addr "0.0.0.0:7233" is not a loopback address and the server has no authentication; add --allow-non-loopback`},
		{args: []string{"--addr", "192.168.1.20:7233"}, refusal: "is not a loopback address"},
		{args: []string{"--addr", "0.0.0.0:7233", "--allow-non-loopback"}, addr: "0.0.0.0:7233"},
		{args: []string{"--addr", "example.com:7233"}, refusal: `--addr "example.com:7233": the host must be an IP address or localhost`},
		{args: []string{"--addr", "7233"}, refusal: `--addr "7233": address 7233: missing port in address`},
		{args: []string{"--namespace", ""}, refusal: "--namespace is empty"},
		{args: []string{"--log-level", "loud"}, refusal: `--log-level "loud": want debug, info, warn, error or none`},
		{args: []string{"serve"}, refusal: `unexpected argument "serve"`},
		{args: []string{"--port", "1"}, refusal: "flag provided but not defined: -port"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o, err := parse(tc.args, io.Discard)
			if tc.refusal != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refusal) {
					t.Fatalf("parse: %v, want an error with %q", err, tc.refusal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.addr != tc.addr || o.db != tc.db {
				t.Errorf("addr %q db %q, want %q %q", o.addr, o.db, tc.addr, tc.db)
			}
		})
	}
}

// devserverProcess is a devserver the test started.
type devserverProcess struct {
	cmd   *exec.Cmd
	ready string // the line it printed when ready
}

// devserverBin is the command, built once by TestMain.
var devserverBin string

// TestMain builds the command into a temporary directory for the tests
// that run it as a process.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "devserver-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	devserverBin = filepath.Join(dir, "devserver")
	if out, err := exec.Command("go", "build", "-o", devserverBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// startDevserver starts bin with args and waits for its ready line.
func startDevserver(t *testing.T, bin string, args ...string) *devserverProcess {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatal("the devserver exited before it was ready")
		}
		return &devserverProcess{cmd: cmd, ready: line}
	case <-time.After(time.Minute):
		t.Fatal("the devserver was not ready in a minute")
	}
	return nil
}

// stop stops the process with sig and wants exit status 0.
func (p *devserverProcess) stop(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("the devserver stopped with %v after %v", err, sig)
	}
}

// freeAddr returns an address of 127.0.0.1 that is free now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestDevserverKeepsHistoryInItsDB starts the command as a process with a
// namespace and a SQLite file, starts a workflow on it, stops it with
// SIGTERM and starts it again on the same file: the namespace is there and
// the workflow's history survived. Then SIGINT stops it too.
func TestDevserverKeepsHistoryInItsDB(t *testing.T) {
	bin := devserverBin
	addr, db := freeAddr(t), filepath.Join(t.TempDir(), "temporal.db")
	args := []string{"--addr", addr, "--namespace", "walk-test", "--db", db}

	first := startDevserver(t, bin, args...)
	want := fmt.Sprintf("temporal dev server on %s, namespace \"walk-test\", state in %s, no web UI", addr, db)
	if first.ready != want {
		t.Errorf("ready line %q, want %q", first.ready, want)
	}
	c := dial(t, addr, "walk-test")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: "walk-test"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ns.GetNamespaceInfo().GetName(); got != "walk-test" {
		t.Errorf("namespace %q", got)
	}
	// No worker polls the task queue: the workflow stays started.
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "survivor", TaskQueue: "nobody"}, "Probe", "kept")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	first.stop(t, syscall.SIGTERM)

	second := startDevserver(t, bin, args...)
	c = dial(t, addr, "walk-test")
	it := c.GetWorkflowHistory(ctx, "survivor", run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		t.Fatal("the workflow has no history after the restart")
	}
	ev, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	started := ev.GetWorkflowExecutionStartedEventAttributes()
	if started == nil || started.GetWorkflowType().GetName() != "Probe" || started.GetTaskQueue().GetName() != "nobody" {
		t.Errorf("first event after the restart: %v", ev)
	}
	c.Close()
	second.stop(t, syscall.SIGINT)
}

// TestDevserverInMemory starts the command without --db: its ready line
// says the state is in memory.
func TestDevserverInMemory(t *testing.T) {
	addr := freeAddr(t)
	p := startDevserver(t, devserverBin, "--addr", addr)
	if m := regexp.MustCompile(`^temporal dev server on (\S+), namespace "default", state in memory, no web UI$`).FindStringSubmatch(p.ready); m == nil || m[1] != addr {
		t.Errorf("ready line %q", p.ready)
	}
	c := dial(t, addr, "default")
	c.Close()
	p.stop(t, syscall.SIGTERM)
}

// TestDevserverRefusesNonLoopback runs the command on 0.0.0.0: it exits
// with status 2 before starting anything.
func TestDevserverRefusesNonLoopback(t *testing.T) {
	out, err := exec.Command(devserverBin, "--addr", "0.0.0.0:7233").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want status 2; output %s", err, out)
	}
	want := "devserver: --addr \"0.0.0.0:7233\" is not a loopback address and the server has no authentication; add --allow-non-loopback to listen there\n"
	if string(out) != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func dial(t *testing.T, hostPort, namespace string) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: hostPort, Namespace: namespace, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHelpIsInDocs checks that docs/temporal.md shows the command's -h
// text as it is.
func TestHelpIsInDocs(t *testing.T) {
	page, err := os.ReadFile("../../../../../../docs/temporal.md")
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "```\n$ go run ./cmd/devserver -h\n"
	_, rest, ok := strings.Cut(string(page), prompt)
	if !ok {
		t.Fatalf("docs/temporal.md has no block %q", prompt)
	}
	shown, _, _ := strings.Cut(rest, "```\n")
	var help strings.Builder
	if _, err := parse([]string{"-h"}, &help); err != flag.ErrHelp {
		t.Fatalf("parse -h: %v", err)
	}
	if shown != help.String() {
		t.Errorf("docs/temporal.md shows\n%s\ndevserver -h prints\n%s", shown, help.String())
	}
}

// quietLogger is an SDK logger that discards.
func quietLogger() sdklog.Logger { return sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

// TestDevserverAllowNonLoopback starts the command on every interface with
// --allow-non-loopback: the ready line names the address it listens on,
// and a client dials it on 127.0.0.1.
func TestDevserverAllowNonLoopback(t *testing.T) {
	_, port, err := net.SplitHostPort(freeAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startDevserver(t, devserverBin, "--addr", "0.0.0.0:"+port, "--allow-non-loopback")
	if want := "temporal dev server on 0.0.0.0:" + port + ", namespace \"default\", state in memory, no web UI"; p.ready != want {
		t.Errorf("ready line %q, want %q", p.ready, want)
	}
	c := dial(t, "127.0.0.1:"+port, "default")
	c.Close()
	p.stop(t, syscall.SIGTERM)
}
