//go:build e2e

package main

// This file is the end-to-end test of adoption: it walks docs/guide.md and
// docs/mcp-quickstart.md as a reader does, outside this repository: step by
// step, writing only the files shown so far and running that step's
// commands before it reads the next step, and checking the output each step
// shows. It walks the guide a second time in the same directory, as a reader
// who comes back to it does. It needs the Go module proxy (Goa's HTTP
// packages, Goa's CLI) and the MCP servers of scripts/test-deps, so it runs
// only with the e2e build tag, which .ci/run sets:
//
//	go test -tags e2e -run '^TestUserModule$' -v ./cmd/goa-discovery/

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// registryAddr is the address the pages run the registry on; the walk runs
// it on a free loopback port instead.
const registryAddr = "127.0.0.1:8080"

// TestUserModule walks the guide twice in one directory, then the MCP
// quickstart in another.
func TestUserModule(t *testing.T) {
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir() // GOBIN, first on PATH: where Goa's CLI goes
	guide := &walker{root: root, dir: t.TempDir(), bin: bin, addr: freeAddr(t)}
	for walk := 1; walk <= 2; walk++ {
		if !t.Run(fmt.Sprintf("guide walk %d", walk), func(t *testing.T) { guide.walk(t, guidePath, walk) }) {
			return
		}
	}
	t.Run("mcp quickstart", func(t *testing.T) {
		servers := os.Getenv("GOA_DISCOVERY_MCP_SERVERS")
		if servers == "" {
			t.Skip("GOA_DISCOVERY_MCP_SERVERS is not set: run eval \"$(scripts/test-deps)\" first")
		}
		w := &walker{root: root, dir: t.TempDir(), bin: bin, addr: freeAddr(t), servers: servers}
		w.walk(t, walkthroughPages[1], 1)
	})
}

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// walker follows walkthrough pages in one working directory.
type walker struct {
	root    string // this checkout: the clone the pages name
	dir     string // the working directory; "cd" in a command moves it
	bin     string // GOBIN, first on PATH
	addr    string // replaces registryAddr
	servers string // GOA_DISCOVERY_MCP_SERVERS: the npm servers' node_modules/.bin
}

// ran is one command a step ran, and what it printed on stdout.
type ran struct {
	command string
	stdout  string
	matched bool
}

// walk follows the page's steps in order; walk 2 leaves out the blocks
// marked markFirstWalk.
func (w *walker) walk(t *testing.T, page string, walk int) {
	var servers []*exec.Cmd
	defer func() {
		for _, s := range servers {
			stopServer(t, s)
		}
	}()
	for _, s := range walkSteps(t, page) {
		var runs []*ran
		for _, b := range s.blocks {
			if b.mark == markFirstWalk && walk > 1 {
				continue
			}
			switch b.lang {
			case "go":
				w.write(t, b)
			case "sh":
				for _, c := range shellCommands(b.body) {
					if b.mark == markClone {
						c = strings.ReplaceAll(c, clonePath, w.root)
					}
					c = strings.ReplaceAll(c, registryAddr, w.addr)
					switch {
					case b.mark == markUnpublished:
						w.unpublished(t, c)
					case b.mark == markTestDeps:
						w.installed(t, c)
					case strings.HasSuffix(c, inAnotherTerminal):
						servers = append(servers, w.serve(t, c))
					default:
						runs = append(runs, w.run(t, s.heading, c))
					}
				}
			case "text":
				for _, e := range transcript(strings.ReplaceAll(b.body, registryAddr, w.addr)) {
					checkTranscript(t, page, b, e, runs)
				}
			}
		}
	}
}

// write writes a Go block's file into the module.
func (w *walker) write(t *testing.T, b walkBlock) {
	t.Helper()
	target := filepath.Join(w.dir, filepath.FromSlash(b.path))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte(b.source), 0o644); err != nil {
		t.Fatal(err)
	}
}

// env is the environment of the reader's commands: this repository's
// workspace and flags do not apply to their module; GOBIN is on PATH.
func (w *walker) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOWORK=") && !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GOBIN=") {
			env = append(env, kv)
		}
	}
	path := w.bin + string(os.PathListSeparator) + os.Getenv("PATH")
	if w.servers != "" {
		path = w.servers + string(os.PathListSeparator) + path
	}
	return append(env, "GOWORK=off", "GOFLAGS=-buildvcs=false", "GOBIN="+w.bin, "PATH="+path)
}

// run runs one command in bash in the working directory, follows a "cd" it
// makes, logs it with its time and output, and fails the test when it
// fails. A goa-discovery gen must not change go.mod or go.sum and prints
// paths relative to the module root.
func (w *walker) run(t *testing.T, step, command string) *ran {
	t.Helper()
	pwd := filepath.Join(t.TempDir(), "pwd")
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", command+"\npwd > "+pwd)
	cmd.Dir = w.dir
	cmd.Env = w.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	gen := strings.HasPrefix(command, "go tool goa-discovery gen ")
	mod := w.moduleFiles(t)
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s\n$ %s (%.1fs)\n%s%s", step, command, time.Since(start).Seconds(), stdout.String(), stderr.String())
	if err != nil {
		t.Fatalf("%s: %s: %v\n%s", step, command, err, stderr.String())
	}
	if dir, err := os.ReadFile(pwd); err == nil {
		w.dir = strings.TrimSpace(string(dir))
	}
	if gen {
		if w.moduleFiles(t) != mod {
			t.Errorf("%s: %s changed go.mod or go.sum", step, command)
		}
		for _, line := range strings.Fields(stdout.String()) {
			if filepath.IsAbs(line) || !strings.HasPrefix(line, "gen/") {
				t.Errorf("%s: %s printed %q, want paths relative to the module root", step, command, line)
			}
		}
	}
	return &ran{command: bareCommand(command), stdout: stdout.String()}
}

// unpublished runs a command that needs a published version of this module
// in a scratch module, and fails the test if it succeeds: the page's note
// that no version is published would then be wrong.
func (w *walker) unpublished(t *testing.T, command string) {
	t.Helper()
	dir := t.TempDir()
	script := "go mod init example.com/scratch\n" + command
	cmd := exec.Command("bash", "-euc", script)
	cmd.Dir = dir
	cmd.Env = w.env()
	out, err := cmd.CombinedOutput()
	t.Logf("$ %s (needs a published version)\n%s", command, out)
	if err == nil {
		t.Errorf("%s succeeds: a version is published, so the page's note that none is is wrong", command)
	}
}

// installed stands for "npm install PKG@VERSION...": it checks that
// scripts/test-deps installed each package at that version and links the
// module's node_modules to the installed ones.
func (w *walker) installed(t *testing.T, command string) {
	t.Helper()
	if w.servers == "" {
		t.Fatalf("%s: GOA_DISCOVERY_MCP_SERVERS is not set", command)
	}
	modules := filepath.Dir(w.servers) // .../node_modules
	fields := strings.Fields(command)
	if len(fields) < 3 || fields[0] != "npm" || fields[1] != "install" {
		t.Fatalf("%q is not an npm install", command)
	}
	for _, f := range fields[2:] {
		at := strings.LastIndexByte(f, '@')
		if strings.HasPrefix(f, "-") || at <= 0 {
			continue
		}
		pkg, version := f[:at], f[at+1:]
		data, err := os.ReadFile(filepath.Join(modules, filepath.FromSlash(pkg), "package.json"))
		if err != nil {
			t.Fatalf("%s: scripts/test-deps did not install %s: %v", command, pkg, err)
		}
		if !strings.Contains(string(data), `"version": "`+version+`"`) {
			t.Fatalf("%s: scripts/test-deps installed %s at another version than %s", command, pkg, version)
		}
	}
	link := filepath.Join(w.dir, "node_modules")
	if _, err := os.Lstat(link); os.IsNotExist(err) {
		if err := os.Symlink(modules, link); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("$ %s (installed by scripts/test-deps: node_modules links to %s)", command, modules)
}

// serve starts a command that keeps running, waits for the first line it
// prints (a server says where it serves), and returns it to be stopped at
// the end of the walk.
func (w *walker) serve(t *testing.T, command string) *exec.Cmd {
	t.Helper()
	command = strings.TrimSpace(strings.TrimSuffix(command, inAnotherTerminal))
	cmd := exec.Command("bash", "-euc", "exec "+command)
	cmd.Dir = w.dir
	cmd.Env = w.env()
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- line
		for {
			if _, err := r.ReadString('\n'); err != nil {
				return
			}
		}
	}()
	select {
	case line := <-lines:
		t.Logf("$ %s &\n%s", command, line)
		if line == "" {
			t.Fatalf("%s exited before it printed a line", command)
		}
	case <-time.After(3 * time.Minute):
		stopServer(t, cmd)
		t.Fatalf("%s printed nothing in 3 minutes", command)
	}
	return cmd
}

// stopServer interrupts a server and waits for it to exit.
func stopServer(t *testing.T, cmd *exec.Cmd) {
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Errorf("stop %s: %v", cmd.Args, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s exited with %v", cmd.Args, err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Errorf("%s did not stop in 30s after an interrupt", cmd.Args)
	}
}

// checkTranscript checks that a command the step ran printed what the page
// shows for it.
func checkTranscript(t *testing.T, page string, b walkBlock, e transcriptEntry, runs []*ran) {
	t.Helper()
	for _, r := range runs {
		if r.matched || r.command != e.command {
			continue
		}
		r.matched = true
		got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if r.stdout == "" {
			got = nil
		}
		if !outputMatches(e.output, got) {
			t.Errorf("%s:%d: %s printed\n%s\nthe page shows\n%s", page, b.line, e.command, r.stdout, strings.Join(e.output, "\n"))
		}
		return
	}
	t.Errorf("%s:%d: the page shows the output of %q, which the step did not run", page, b.line, e.command)
}

// moduleFiles returns go.mod and go.sum of the working directory.
func (w *walker) moduleFiles(t *testing.T) string {
	var all string
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(w.dir, name))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all += string(b) + "\x00"
	}
	return all
}
