package codegen_test

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/codegen/internal/gomodtest"
)

// TestGoldenCompiles builds, vets and tests the golden files of every design
// in a temporary module that replaces this one, so that a golden file that
// does not compile cannot land. The test it adds checks, per toolset, that
// the precomputed search counts equal what runtime/toolsearch computes from
// the toolset's schemas and that SchemaFingerprint equals the runtime
// fingerprint of Toolset(); per agent, that its definition's index holds
// exactly its deferred tools; that decoded values take the defaults
// design's defaults; that the Register of a dynamic MCP toolset binds
// only a session of its server; and that the registry provider adapter runs
// the method of the tool a call names (testdata/provider).
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code with the go command")
	}
	mod := gomodtest.New(t, "..", goldenModule)
	var toolsets, agents []string
	for _, gd := range goldenDesigns {
		src := filepath.Join(goldenRoot, gd.name)
		mod.CopyTree(t, src, gd.name)
		// An MCP server package, and a gateway that serves one, need Goa's
		// service package, which only "goa gen" writes:
		// TestMCPServerEndToEnd and TestMCPGatewayEndToEnd build and run
		// them.
		for _, dir := range []string{"mcpservers", "mcpgateways"} {
			if err := os.RemoveAll(filepath.Join(mod.Dir, gd.name, dir)); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range packagesUnder(t, src, "toolsets", gd.name) {
			if !isDynamicMCPPackage(t, filepath.Join(src, "toolsets", path.Base(p))) {
				toolsets = append(toolsets, p)
			}
		}
		agents = append(agents, packagesUnder(t, src, "agents", gd.name)...)
	}
	check := checkProgram(toolsets, agents)
	if err := os.WriteFile(filepath.Join(mod.Dir, "check_test.go"), []byte(check), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "export_test.go"), []byte(exportCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "defaults_test.go"), []byte(defaultsCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "dynamicmcp_test.go"), []byte(dynamicMCPCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	provider, err := os.ReadFile(filepath.Join("testdata", "provider", "provider_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.Dir, "provider_test.go"), provider, 0o644); err != nil {
		t.Fatal(err)
	}
	mod.Go(t, "build", "./...")
	mod.Go(t, "vet", "./...")
	out := mod.Go(t, "test", "-count=1", "-v", ".")
	if !strings.Contains(out, "--- PASS: TestExportedToolsetKeepsItsSchema") {
		t.Errorf("no passing check of the exported toolset in:\n%s", out)
	}
	if !strings.Contains(out, "--- PASS: TestDecodedValuesTakeDesignDefaults") {
		t.Errorf("no passing check of the design defaults in:\n%s", out)
	}
	if !strings.Contains(out, "--- PASS: TestRegistryExecutorDispatchesByName") {
		t.Errorf("no passing check of the registry provider adapter in:\n%s", out)
	}
	if !strings.Contains(out, "--- PASS: TestDynamicMCPRegister") {
		t.Errorf("no passing check of the dynamic MCP toolset's Register in:\n%s", out)
	}
	for _, p := range append(slices.Clone(toolsets), agents...) {
		if !strings.Contains(out, "--- PASS: TestGenerated/"+path.Base(path.Dir(path.Dir(p)))+"_"+path.Base(p)) {
			t.Errorf("no passing check of %s in:\n%s", p, out)
		}
	}
}

// packagesUnder returns the import paths of the packages in dir/kind.
func packagesUnder(t *testing.T, dir, kind, design string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, kind))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, e := range entries {
		pkgs = append(pkgs, path.Join(goldenModule, design, kind, e.Name()))
	}
	return pkgs
}

// checkProgram returns the test file that checks the generated packages.
func checkProgram(toolsets, agents []string) string {
	var b strings.Builder
	b.WriteString(`package golden_test

import (
	"reflect"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
`)
	alias := func(p string) string {
		return strings.ReplaceAll(strings.TrimPrefix(p, goldenModule+"/"), "/", "_")
	}
	for _, p := range append(slices.Clone(toolsets), agents...) {
		fmt.Fprintf(&b, "\t%s %q\n", alias(p), p)
	}
	b.WriteString(")\n\nfunc TestGenerated(t *testing.T) {\n")
	for _, p := range toolsets {
		a := alias(p)
		fmt.Fprintf(&b, "\tt.Run(%q, func(t *testing.T) { checkToolset(t, %s.Name, %s.Toolset(), %s.SearchCounts(), %s.SchemaFingerprint, %s.Specs()) })\n",
			path.Base(path.Dir(path.Dir(p)))+"_"+path.Base(p), a, a, a, a, a)
	}
	for _, p := range agents {
		a := alias(p)
		fmt.Fprintf(&b, "\tt.Run(%q, func(t *testing.T) { checkAgent(t, %s.Definition()) })\n",
			path.Base(path.Dir(path.Dir(p)))+"_"+path.Base(p), a)
	}
	b.WriteString(checkHelpers)
	return b.String()
}

// checkHelpers are the checks of the generated test file.
const checkHelpers = `}

func checkToolset(t *testing.T, name string, ts tools.ToolsetSchema, counts []toolsearch.Counts, fingerprint func(string) (tools.Fingerprint, error), specs []tools.ToolSpec) {
	if err := ts.Validate(); err != nil {
		t.Fatalf("Toolset() is not a valid record: %v", err)
	}
	if len(counts) != len(ts.Tools) || len(specs) != len(ts.Tools) {
		t.Fatalf("%d tools, %d counts, %d specs", len(ts.Tools), len(counts), len(specs))
	}
	for i, s := range ts.Tools {
		entry, err := discovery.EntryFromSchema(&s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := toolsearch.Count(toolsearch.Document{
			Name: string(s.Name), Alias: entry.Snapshot.Name, Title: s.Title, Description: s.Description,
			Parameters: entry.Snapshot.Parameters, SearchTerms: entry.SearchTerms,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(counts[i], want) {
			t.Errorf("counts of %s = %+v, toolsearch computes %+v", s.Name, counts[i], want)
		}
		if specs[i].Name != s.Name {
			t.Errorf("spec %d is %s, want %s", i, specs[i].Name, s.Name)
		}
	}
	for _, n := range []string{name, name + "-copy"} {
		got, err := fingerprint(n)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tools.SchemaFingerprint(n, ts.Tools)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("SchemaFingerprint(%q) = %s, runtime fingerprint of Toolset() is %s", n, got, want)
		}
	}
}

func checkAgent(t *testing.T, def runtime.AgentRegistration) {
	if def.Name == "" || def.Description == "" {
		t.Fatalf("definition without name or description: %+v", def)
	}
	if len(def.Deferred) == 0 {
		if def.DeferredIndex != nil {
			t.Fatal("index without deferred tools")
		}
		return
	}
	if def.DeferredIndex.Len() != len(def.Deferred) {
		t.Fatalf("index holds %d tools, the agent defers %d", def.DeferredIndex.Len(), len(def.Deferred))
	}
	names := make([]string, len(def.Deferred))
	for i, id := range def.Deferred {
		names[i] = string(id)
	}
	if _, err := def.DeferredIndex.Lookup(names...); err != nil {
		t.Fatal(err)
	}
}
`

// exportCheck is the test file that checks the registration of the
// agentexport design's exported toolset: the agent that uses it is offered
// the tool with the arguments the design declares, not a stand-in.
const exportCheck = `package golden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"example.com/golden/agentexport/agents/researcher"
	"example.com/golden/agentexport/agents/writer"
	"example.com/golden/agentexport/toolsets/research"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestExportedToolsetKeepsItsSchema(t *testing.T) {
	ctx := context.Background()
	rt := runtime.New()
	if err := research.Register(rt); err != nil {
		t.Fatalf("register the exported toolset: %v", err)
	}
	var offered []model.ToolDefinition
	catalogMode := false
	planner := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) { // a test double
		offered = in.Agent.AdvertisedToolDefinitions()
		catalogMode = in.Agent.Discovery().ConversationCatalog
		return model.NewResponse(model.AssistantMessage(model.TextPart("done")), model.FinishStop, model.Usage{})
	})
	// The registration carries the application's conversation catalog
	// setting to every request of the agent.
	if err := writer.RegisterWriterAgent(ctx, rt, writer.WriterAgentConfig{Planner: planner, ConversationCatalog: true}); err != nil {
		t.Fatalf("register writer: %v", err)
	}
	// The agent behind the exported tool must be registered before the
	// first run of an agent that uses it.
	if err := researcher.RegisterResearcherAgent(ctx, rt, researcher.ResearcherAgentConfig{Planner: planner}); err != nil {
		t.Fatalf("register researcher: %v", err)
	}
	if _, err := writer.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("Write a report.")}); err != nil {
		t.Fatalf("run writer: %v", err)
	}
	if !catalogMode {
		t.Error("the writer's requests are not in conversation catalog mode; RegisterWriterAgent dropped cfg.ConversationCatalog")
	}
	want := research.Toolset().Tools[0].Payload
	for _, def := range offered {
		if def.Description != research.Toolset().Tools[0].Description {
			continue
		}
		var got, exp bytes.Buffer
		if err := json.Compact(&got, def.Parameters); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&exp, want); err != nil {
			t.Fatal(err)
		}
		if got.String() != exp.String() {
			t.Fatalf("%s offered with parameters %s, the design declares %s", def.Name, got.String(), exp.String())
		}
		return
	}
	t.Fatalf("writer is not offered the exported tool; offered %+v", offered)
}
`
