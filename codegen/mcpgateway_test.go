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
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpgateway"
)

// TestMCPGatewayEndToEnd generates the mcpgateway design the way "goa gen"
// does (Goa's generators and this plugin) into a temporary module, checks
// that the plugin wrote what Generate writes, then runs
// testdata/mcpgateway there: the generated gateway, on the runtime's
// gateway, serves the Goa service's endpoints and two external servers to
// a go-sdk client that searches, receives list_changed, lists again, calls
// found tools and never reaches a tool the design does not declare.
func TestMCPGatewayEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code with the go command")
	}
	const genpkg = "example.com/gatewaye2e/gen"
	standalone := generate(t, mcpgateway.Design, genpkg)
	if _, err := designtest.Run(t, mcpgateway.Design); err != nil {
		t.Fatalf("design: %v", err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "mcpgateway", "e2e_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("..", "testdata", "mcpclients", "gateway-client.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gomodtest.New(t, "..", "example.com/gatewaye2e")
	for _, kv := range gomodtest.Env()[len(os.Environ()):] {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v) // Goa's generator loads the gen package with the go command
	}
	t.Chdir(mod.Dir)
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
	if err := os.MkdirAll(filepath.Join(mod.Dir, "e2e"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "e2e", "e2e_test.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	mod.Go(t, "vet", "./...")
	t.Setenv("GATEWAY_CLIENT_SCRIPT", script) // the TypeScript SDK's client, for the test below
	out := mod.Go(t, "test", "-race", "-count=1", "-v", "./e2e/")
	for _, test := range []string{"TestGeneratedGateway", "TestGeneratedGatewayTypeScriptClient"} {
		if !strings.Contains(out, "--- PASS: "+test+" ") && !strings.Contains(out, "--- SKIP: "+test+" ") {
			t.Errorf("no passing run of %s in:\n%s", test, out)
		}
	}
}
