package codegen_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/codegen/internal/defaultsdesign"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/testdata/designs/agentexport"
	"github.com/goa-discovery/goa-discovery/testdata/designs/deferredall"
	"github.com/goa-discovery/goa-discovery/testdata/designs/deferrednamed"
	"github.com/goa-discovery/goa-discovery/testdata/designs/localtoolset"
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpdeclared"
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpdynamic"
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpgateway"
	"github.com/goa-discovery/goa-discovery/testdata/designs/mcpservice"
	"github.com/goa-discovery/goa-discovery/testdata/designs/registrysources"
	"github.com/goa-discovery/goa-discovery/testdata/designs/samenames"
	"github.com/goa-discovery/goa-discovery/testdata/designs/sharedargs"
	"github.com/goa-discovery/goa-discovery/testdata/designs/validations"
)

// goldenRoot holds one directory of expected files per golden design.
const goldenRoot = "../testdata/golden"

// goldenModule is the module path the golden files are generated for; the
// files of design d live in package directories under goldenModule/d.
const goldenModule = "example.com/golden"

// goldenDesigns are the golden designs, one concept each.
var goldenDesigns = []struct {
	name   string
	design func()
}{
	{"agentexport", agentexport.Design},
	{"defaults", defaultsdesign.Design},
	{"deferredall", deferredall.Design},
	{"deferrednamed", deferrednamed.Design},
	{"localtoolset", localtoolset.Design},
	{"mcpdeclared", mcpdeclared.Design},
	{"mcpdynamic", mcpdynamic.Design},
	{"mcpgateway", mcpgateway.Design},
	{"mcpservice", mcpservice.Design},
	{"registrysources", registrysources.Design},
	{"samenames", samenames.Design},
	{"sharedargs", sharedargs.Design},
	{"validations", validations.Design},
}

func TestGolden(t *testing.T) {
	for _, gd := range goldenDesigns {
		t.Run(gd.name, func(t *testing.T) {
			got := generate(t, gd.design, goldenModule+"/"+gd.name)
			golden.Tree(t, filepath.Join(goldenRoot, gd.name), got)
		})
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, gd := range goldenDesigns {
		t.Run(gd.name, func(t *testing.T) {
			first := generate(t, gd.design, goldenModule)
			second := generate(t, gd.design, goldenModule)
			if diff := cmp.Diff(first, second); diff != "" {
				t.Fatalf("two runs differ:\n%s", diff)
			}
		})
	}
}

// generate runs design in a clean eval context, generates it into a
// temporary directory and returns the files by slash-separated path.
func generate(t *testing.T, design func(), importPath string) map[string][]byte {
	t.Helper()
	if _, err := designtest.Run(t, design); err != nil {
		t.Fatalf("design: %v", err)
	}
	dir := t.TempDir()
	written, err := codegen.Generate(dir, importPath)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	got := golden.ReadTree(t, dir)
	if len(written) != len(got) {
		t.Errorf("Generate reported %d files, wrote %d", len(written), len(got))
	}
	for name, content := range got {
		if !bytes.HasPrefix(content, []byte(codegen.Header+"\n")) {
			t.Errorf("%s does not start with the generated header", name)
		}
	}
	return got
}
