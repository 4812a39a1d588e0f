package codegen_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
}
