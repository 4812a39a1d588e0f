package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
)

func TestMCPImportUsage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"help", []string{"import", "-h"}, 0, "usage: goa-discovery mcp import --name NAME"},
		{"no server", []string{"import", "--name", "fs"}, 2, "give the server: --url URL or --command CMD [ARGS...]"},
		{"both", []string{"import", "--name", "fs", "--url", "http://127.0.0.1:1/mcp", "--command", "srv"}, 2, "give --url or --command, not both"},
		{"empty command", []string{"import", "--name", "fs", "--command"}, 2, "--command names no command"},
		{"no name", []string{"import", "--url", "http://127.0.0.1:1/mcp"}, 2, "usage: goa-discovery mcp import"},
		{"unknown flag", []string{"import", "--nme", "fs"}, 2, "flag provided but not defined: -nme"},
		{"unknown command", []string{"imprt"}, 2, `unknown command "imprt"`},
		{"unreachable server", []string{"import", "--name", "fs", "--command", filepath.Join(t.TempDir(), "absent")}, 1, `server "fs" over stdio:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runMCP(tc.args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr does not hold %q:\n%s", tc.stderr, stderr.String())
			}
		})
	}
}

// TestMCPImportRoundTrip imports server-everything and server-filesystem
// (npm, over stdio) into one design package of a new module, generates it
// with gen, and registers each generated toolset with the same server: the
// imported schemas match the servers' with no edit. server-filesystem's
// read_media_file has an outputSchema with anyOf, which the DSL cannot
// declare: without --any the import fails at its JSON Pointer, with --any
// it declares the property Any.
func TestMCPImportRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program and a module's tests")
	}
	everything := npmservers.Path(t, "mcp-server-everything")
	filesystem := npmservers.Path(t, "mcp-server-filesystem")
	root := t.TempDir()
	mod := newImportModule(t)
	tmpl := registerCheckTemplate(t)
	var stderr bytes.Buffer
	fsArgs := []string{"import", "--name", "filesystem", "--toolset", "files", "-o", filepath.Join(mod, "design", "files.go"), "--command", filesystem, root}
	if code := runMCP(fsArgs, new(bytes.Buffer), &stderr); code != 1 ||
		!strings.Contains(stderr.String(), `tool "read_media_file": outputSchema at /properties/content/items/anyOf: a value of one of several types (object, object): the DSL declares one type per attribute`) {
		t.Fatalf("import without --any: exit %d, stderr:\n%s", code, stderr.String())
	}
	for _, args := range [][]string{
		append([]string{"import", "--any"}, fsArgs[1:]...),
		{"import", "--name", "everything", "--agent", "lab", "--deferred", "-o", filepath.Join(mod, "design", "everything.go"), "--command", everything},
	} {
		stderr.Reset()
		if code := runMCP(args, new(bytes.Buffer), &stderr); code != 0 {
			t.Fatalf("%v: exit %d, stderr:\n%s", args, code, stderr.String())
		}
	}
	t.Chdir(mod)
	for _, kv := range importModuleEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var stdout bytes.Buffer
	stderr.Reset()
	if code := runGen([]string{"-o", "gen", "example.com/imported/design"}, &stdout, &stderr); code != 0 {
		t.Fatalf("gen: exit %d:\n%s", code, stderr.String())
	}
	writeRegisterCheck(t, tmpl, mod, []registerCase{
		{Alias: "everything", Package: "example.com/imported/gen/toolsets/everything", Env: "EVERYTHING_COMMAND"},
		{Alias: "files", Package: "example.com/imported/gen/toolsets/files", Env: "FILESYSTEM_COMMAND"},
	})
	out := goInModule(t, mod, []string{"EVERYTHING_COMMAND=" + everything, "FILESYSTEM_COMMAND=" + filesystem + " " + root}, "test", "-count=1", "-v", "./check/")
	for _, sub := range []string{"everything", "filesystem"} {
		if !strings.Contains(out, "--- PASS: TestRegisterImported/"+sub) {
			t.Errorf("no passing registration of %s:\n%s", sub, out)
		}
	}
}

// newImportModule returns a new module, example.com/imported, that requires
// this module (replaced by the checkout) with its go.sum.
func newImportModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/imported\n\ngo 1.26.0\n\nrequire " + repoModule + " v0.0.0\n\nreplace " + repoModule + " => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(goMod), "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "design"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// importModuleEnv is the environment of go commands in the module: its
// go.mod is completed from the module cache, nothing is downloaded.
func importModuleEnv() []string {
	return []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GONOSUMDB=*", "GOSUMDB=off"}
}

// goInModule runs the go command in the module with the extra environment
// and returns its output; it fails t when the command fails.
func goInModule(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), importModuleEnv()...), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// registerCase is one toolset the check registers.
type registerCase struct{ Alias, Package, Env string }

// registerCheckTemplate reads testdata/mcpimport/register_test.go.tmpl.
func registerCheckTemplate(t *testing.T) *template.Template {
	t.Helper()
	tmpl, err := template.ParseFiles(filepath.Join(moduleRoot, "testdata", "mcpimport", "register_test.go.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	return tmpl
}

// writeRegisterCheck writes the module's check package from tmpl.
func writeRegisterCheck(t *testing.T, tmpl *template.Template, mod string, cases []registerCase) {
	t.Helper()
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, cases); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(mod, "check"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "check", "check_test.go"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repoModule is this repository's module path.
const repoModule = "github.com/goa-discovery/goa-discovery"

// TestMCPImportServerFails runs servers that do not start or never
// answer: the error names the server by --name and shows the last lines
// of its standard error, and --timeout bounds the whole import.
func TestMCPImportServerFails(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	exits := script("exits", "echo 'starting' >&2\necho 'Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set' >&2\nexit 3")
	hangs := script("hangs", "exec sleep 60")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"a server that exits", []string{"--name", "github", "--command", exits},
			[]string{`goa-discovery mcp import: server "github" over stdio:`, "the server's standard error ended with:\n  | starting\n  | Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set"}},
		{"a server that never answers", []string{"--name", "slow", "--timeout", "2s", "--command", hangs},
			[]string{`goa-discovery mcp import: server "slow" over stdio:`, "(--timeout 2s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := runMCP(append([]string{"import"}, tc.args...), new(bytes.Buffer), &stderr); code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr holds no %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}
