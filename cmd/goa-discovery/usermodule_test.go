//go:build e2e

package main

// This file is the end-to-end test of adoption: it follows docs/guide.md in
// a new module outside this repository, writing every Go file the guide
// shows and running its commands. It needs the Go module proxy
// (Goa's HTTP packages) and builds Goa's CLI, so it runs only with the e2e
// build tag, which .ci/run sets:
//
//	go test -tags e2e -run TestUserModule -v ./cmd/goa-discovery/

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/internal/golden"
)

const (
	// goaVersion is the Goa CLI the test installs: the Goa version of this
	// module's go.mod.
	goaVersion = "v3.25.3"
	// userModule is the module path of the new module.
	userModule = "example.com/helpdesk"
	// userDesign is its design package.
	userDesign = userModule + "/design"
	// thisModule is this repository's module path.
	thisModule = "github.com/goa-discovery/goa-discovery"
	// toolPath is the package that Go's tool directive names.
	toolPath = thisModule + "/cmd/goa-discovery"
)

// TestUserModule runs both generators in both orders in a new module, builds
// it and runs the generated agent.
func TestUserModule(t *testing.T) {
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	goa := installGoa(t)
	orders := []struct {
		name  string
		first func(u *user) string
		then  func(u *user) string
	}{
		{"goa-discovery gen then goa gen", (*user).discoveryGen, (*user).goaGen},
		{"goa gen then goa-discovery gen", (*user).goaGen, (*user).discoveryGen},
	}
	trees := make([]map[string][]byte, len(orders))
	for i, o := range orders {
		t.Run(o.name, func(t *testing.T) {
			u := newUser(t, root, goa)
			before := u.moduleFiles()
			o.first(u)
			afterFirst := golden.ReadTree(t, filepath.Join(u.dir, "gen"))
			if mod := u.moduleFiles(); mod != before {
				t.Errorf("the first generator changed go.mod or go.sum")
			}
			out := o.then(u)
			tree := golden.ReadTree(t, filepath.Join(u.dir, "gen"))
			for name, content := range afterFirst {
				if !bytes.Equal(tree[name], content) {
					t.Errorf("the second generator destroyed or changed gen/%s", name)
				}
			}
			checkOutputs(t, tree)
			if i == 1 && strings.TrimSpace(out) != "" {
				t.Errorf("goa-discovery gen after goa gen rewrote files that goa gen wrote:\n%s", out)
			}
			if mod := u.moduleFiles(); mod != before {
				t.Errorf("the second generator changed go.mod or go.sum")
			}
			trees[i] = tree
			u.copy("cmd")
			u.run("go", "mod", "tidy")
			u.run("go", "build", "./...")
			ran := u.run("go", "run", "./cmd/helpdesk")
			for _, want := range []string{
				"found tickets_search_tickets\n",
				`result: [{"id":"T-2","title":"Invoice shows the wrong amount","status":"open"}]` + "\n",
				`called tickets.search_tickets (local toolset tickets) with {"query":"invoice"}` + "\n",
				"answer: T-2 is the open invoice ticket.\n",
			} {
				if !strings.Contains(ran, want) {
					t.Errorf("the agent's run does not print %q:\n%s", want, ran)
				}
			}
		})
	}
	t.Run("registry", func(t *testing.T) {
		u := newUser(t, root, goa)
		u.discoveryGen()
		u.copy("cmd")
		u.run("go", "mod", "tidy")
		url := u.serveRegistry()
		ran := u.run("go", "run", "./cmd/helpdesk", "-registry", url)
		for _, want := range []string{
			"found tickets_search_tickets\n",
			`result: [{"id":"T-2","title":"Invoice shows the wrong amount","status":"open"}]` + "\n",
			`called tickets.search_tickets (registry toolset tickets) with {"query":"invoice"}` + "\n",
			"answer: T-2 is the open invoice ticket.\n",
		} {
			if !strings.Contains(ran, want) {
				t.Errorf("the analyst's run does not print %q:\n%s", want, ran)
			}
		}
	})
	if trees[0] != nil && trees[1] != nil {
		if diff := cmp.Diff(trees[0], trees[1]); diff != "" {
			t.Errorf("the two orders generate different trees (-first +second):\n%s", diff)
		}
	}
}

// checkOutputs checks that tree (the files under gen) holds the
// goa-discovery packages and Goa's service and HTTP packages.
func checkOutputs(t *testing.T, tree map[string][]byte) {
	t.Helper()
	for _, name := range []string{
		"toolsets/tickets/register.go", "toolsets/tickets/provider.go", "agents/desk/agent.go",
		"helpdesk/service.go", "http/helpdesk/server/server.go",
	} {
		if _, ok := tree[name]; !ok {
			t.Errorf("gen/%s is missing", name)
		}
	}
}

// installGoa installs Goa's CLI at goaVersion into a temporary GOBIN and
// returns its path.
func installGoa(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	cmd := exec.Command("go", "install", "goa.design/goa/v3/cmd/goa@"+goaVersion)
	cmd.Env = append(userEnv(), "GOBIN="+bin)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install Goa's CLI: %v\n%s", err, out)
	}
	t.Logf("go install goa.design/goa/v3/cmd/goa@%s: %.1fs", goaVersion, time.Since(start).Seconds())
	return filepath.Join(bin, "goa")
}

// userEnv is the environment of the new user's commands: this repository's
// workspace and module flags do not apply to their module.
func userEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOWORK=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	return append(env, "GOWORK=off", "GOFLAGS=-buildvcs=false")
}

// user is a new module outside the repository.
type user struct {
	t     *testing.T
	dir   string
	root  string
	goa   string
	files map[string]string // the guide's files by path
}

// newUser creates the module the way docs/guide.md does from a clone: its
// commands for a clone run with this checkout as the clone.
func newUser(t *testing.T, root, goa string) *user {
	u := &user{t: t, dir: t.TempDir(), root: root, goa: goa, files: guideFiles(t)}
	u.run("go", "mod", "init", userModule)
	u.run("bash", "-euc", guideCloneCommands(t, root))
	mod := readDoc(t, filepath.Join(u.dir, "go.mod"))
	for _, want := range []string{"tool " + toolPath, thisModule + " => " + root} {
		if !strings.Contains(mod, want) {
			t.Fatalf("after the guide's commands for a clone, go.mod has no %q:\n%s", want, mod)
		}
	}
	u.copy("design")
	u.run("go", "mod", "tidy")
	return u
}

// discoveryGen runs goa-discovery gen the way the guide does and checks
// what it prints.
func (u *user) discoveryGen() string {
	out := u.run("go", "tool", "goa-discovery", "gen", userDesign)
	for _, line := range strings.Fields(out) {
		if filepath.IsAbs(line) || !strings.HasPrefix(line, "gen/") {
			u.t.Errorf("goa-discovery gen printed %q, want paths relative to the module root", line)
		}
	}
	return out
}

// goaGen runs Goa's goa gen on the design.
func (u *user) goaGen() string {
	return u.run(u.goa, "gen", userDesign)
}

// serveRegistry installs goa-discovery-registry from the clone (the
// registry server's module) and starts "goa-discovery-registry serve" on a
// free loopback port, as the guide does, stops it when the test ends, and
// returns its URL.
func (u *user) serveRegistry() string {
	u.t.Helper()
	bin := u.t.TempDir()
	install := exec.Command("go", "install", "./cmd/goa-discovery-registry")
	install.Dir = filepath.Join(u.root, "runtime", "registry", "service")
	install.Env = append(userEnv(), "GOBIN="+bin)
	if out, err := install.CombinedOutput(); err != nil {
		u.t.Fatalf("install goa-discovery-registry: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(bin, "goa-discovery-registry"), "serve", "--addr", "127.0.0.1:0", "--data", "registry-data", "--insecure")
	cmd.Dir = u.dir
	cmd.Env = userEnv()
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		u.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		u.t.Fatal(err)
	}
	u.t.Cleanup(func() {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			u.t.Errorf("stop the registry: %v", err)
		}
		if err := cmd.Wait(); err != nil {
			u.t.Errorf("the registry exited with %v", err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		u.t.Fatalf("registry serve printed %q: %v", line, err)
	}
	u.t.Logf("$ goa-discovery-registry serve --addr 127.0.0.1:0 --data registry-data --insecure\n%s", line)
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "http://127.0.0.1:") {
		u.t.Fatalf("registry serve printed %q, want its URL", line)
	}
	return fields[2]
}

// copy writes the guide's files under dir into the module.
func (u *user) copy(dir string) {
	n := 0
	for path, src := range u.files {
		if !strings.HasPrefix(path, dir+"/") {
			continue
		}
		target := filepath.Join(u.dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			u.t.Fatal(err)
		}
		if err := os.WriteFile(target, []byte(src), 0o644); err != nil {
			u.t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		u.t.Fatalf("the guide shows no file under %s/", dir)
	}
}

// run runs a command in the module, logs it with its time, and returns its
// stdout; it fails the test when the command fails.
func (u *user) run(name string, args ...string) string {
	u.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = u.dir
	cmd.Env = userEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	shown := filepath.Base(name) + " " + strings.Join(args, " ")
	u.t.Logf("$ %s (%.1fs)\n%s%s", shown, time.Since(start).Seconds(), stdout.String(), stderr.String())
	if err != nil {
		u.t.Fatalf("%s: %v", shown, err)
	}
	return stdout.String()
}

// moduleFiles returns go.mod and go.sum.
func (u *user) moduleFiles() string {
	var all string
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(u.dir, name))
		if err != nil && !os.IsNotExist(err) {
			u.t.Fatal(err)
		}
		all += string(b) + "\x00"
	}
	return all
}
