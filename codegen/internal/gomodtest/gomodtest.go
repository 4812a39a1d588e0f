package gomodtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ThisModule is the import path of the module the temporary modules
// replace.
const ThisModule = "github.com/goa-discovery/goa-discovery"

// Module is a temporary module.
type Module struct {
	// Dir is the module root.
	Dir string
	// Path is the module path.
	Path string
}

// New creates a module with path modPath in a temporary directory of t that
// requires this module, found at root (the directory of its go.mod).
func New(t testing.TB, root, modPath string) *Module {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire %s v0.0.0\n\nreplace %s => %s\n", modPath, ThisModule, ThisModule, root)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return &Module{Dir: dir, Path: modPath}
}

// Env returns the environment of go commands in a temporary module: go.mod
// may be completed from the module cache, and nothing is downloaded.
func Env() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GONOSUMDB=*", "GOSUMDB=off")
}

// Go runs the go command with args in the module and returns its combined
// output; it fails t when the command fails.
func (m *Module) Go(t testing.TB, args ...string) string {
	t.Helper()
	out, err := m.Command(args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return string(out)
}

// Command returns the go command with args, to run in the module.
func (m *Module) Command(args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = m.Dir
	cmd.Env = Env()
	return cmd
}

// CopyTree copies the files under src into the module directory dst (a
// slash-separated path relative to the module root).
func (m *Module) CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		target := filepath.Join(m.Dir, filepath.FromSlash(dst), rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}
