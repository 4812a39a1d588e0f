package codegen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"

	goagenerator "goa.design/goa/v3/codegen/generator"

	"github.com/goa-discovery/goa-discovery/codegen/internal/gomodtest"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpservice"
)

// TestMCPServerEndToEnd generates the mcpservice design the way "goa gen"
// does (Goa's generators and this plugin, in this process) into a
// temporary module, checks that the plugin wrote what Generate writes, then
// runs testdata/mcpserver there: the generated MCP
// server serves Goa's endpoints of a service implementation, in memory,
// over streamable HTTP on loopback and over stdio, and the generated agent
// finds its deferred tool and calls it through runtime/mcp.
func TestMCPServerEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code with the go command")
	}
	const genpkg = "example.com/mcpe2e/gen"
	standalone := generate(t, mcpservice.Design, genpkg) // what goa-discovery gen writes
	if _, err := designtest.Run(t, mcpservice.Design); err != nil {
		t.Fatalf("design: %v", err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "mcpserver", "e2e_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	catalogServer, err := os.ReadFile(filepath.Join("testdata", "mcpserver", "catalogserver.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := template.ParseFiles(filepath.Join("..", "testdata", "mcpimport", "register_test.go.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gomodtest.New(t, "..", "example.com/mcpe2e")
	for _, kv := range gomodtest.Env()[len(os.Environ()):] {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v) // Goa's generator loads the gen package with the go command
	}
	t.Chdir(mod.Dir) // where the go command resolves the gen package's import path
	if _, err := goagenerator.Generate(mod.Dir, "gen", false); err != nil {
		t.Fatalf("goa gen: %v", err)
	}
	plugin := map[string][]byte{}
	for name, content := range golden.ReadTree(t, filepath.Join(mod.Dir, "gen")) {
		if dir, _, _ := strings.Cut(name, "/"); slices.Contains(expr.GeneratedDirs(), dir) {
			plugin[name] = content
		}
	}
	if diff := cmp.Diff(standalone, plugin); diff != "" {
		t.Errorf("goa gen's plugin and goa-discovery gen differ (-gen +plugin):\n%s", diff)
	}
	for _, want := range []string{"gen/catalog/endpoints.go", "gen/mcpservers/catalogmcp/server.go", "gen/toolsets/catalog/register.go", "gen/agents/clerk/agent.go"} {
		if _, err := os.Stat(filepath.Join(mod.Dir, filepath.FromSlash(want))); err != nil {
			t.Fatalf("goa gen wrote no %s: %v", want, err)
		}
	}
	if err := os.MkdirAll(filepath.Join(mod.Dir, "e2e"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "e2e", "e2e_test.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	mod.Go(t, "vet", "./...")
	out := mod.Go(t, "test", "-count=1", "-v", "./e2e/")
	for _, sub := range []string{"in-memory", "http", "stdio"} {
		if !strings.Contains(out, "--- PASS: TestAgentFindsAndCallsTheServiceOverMCP/"+sub) {
			t.Errorf("no passing run over %s in:\n%s", sub, out)
		}
	}
	importGoaServer(t, mod, catalogServer, tmpl)
}

// importGoaServer runs goa-discovery mcp import on the generated server
// (built as a stdio command), generates the imported design with
// goa-discovery gen and registers its toolset with the same server: a
// Goa-backed server round-trips through import with no edit.
func importGoaServer(t *testing.T, mod *gomodtest.Module, main []byte, tmpl *template.Template) {
	for dir, file := range map[string][]byte{"catalogserver": main, "imported/design": nil} {
		if err := os.MkdirAll(filepath.Join(mod.Dir, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if file != nil {
			if err := os.WriteFile(filepath.Join(mod.Dir, dir, "main.go"), file, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin := filepath.Join(mod.Dir, "bin", "catalog")
	mod.Go(t, "build", "-o", bin, "./catalogserver")
	const cli = gomodtest.ThisModule + "/cmd/goa-discovery"
	mod.Go(t, "run", cli, "mcp", "import", "--name", "catalog", "--toolset", "shelf", "-o", "imported/design/shelf.go", "--command", bin)
	mod.Go(t, "run", cli, "gen", "-o", "imported/gen", mod.Path+"/imported/design")
	var check bytes.Buffer
	if err := tmpl.Execute(&check, []struct{ Alias, Package, Env string }{{"shelf", mod.Path + "/imported/gen/toolsets/shelf", "CATALOG_COMMAND"}}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(mod.Dir, "imported", "check"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "imported", "check", "check_test.go"), check.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CATALOG_COMMAND", bin)
	if out := mod.Go(t, "test", "-count=1", "-v", "./imported/check/"); !strings.Contains(out, "--- PASS: TestRegisterImported/catalog") {
		t.Errorf("no passing registration of the imported toolset:\n%s", out)
	}
}
