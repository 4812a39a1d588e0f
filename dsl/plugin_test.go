package dsl_test

import (
	"strings"
	"testing"

	goacodegen "goa.design/goa/v3/codegen"
	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/testdata/designs/registrysources"
)

// TestImportRegistersGoaPlugin checks that importing the DSL registers the
// generators with Goa's "gen" command: Goa's plugins then add the
// goa-discovery packages to Goa's files.
func TestImportRegistersGoaPlugin(t *testing.T) {
	root, err := designtest.Run(t, registrysources.Design)
	if err != nil {
		t.Fatalf("design: %v", err)
	}
	files, err := goacodegen.RunPlugins("gen", "example.com/app/gen", []eval.Root{goaexpr.Root, root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range files {
		parts := strings.Split(f.Path, "/")
		if len(parts) < 3 || parts[0] != "gen" {
			t.Errorf("plugin file %s is not in a package under gen/", f.Path)
			continue
		}
		kinds[parts[1]] = true
	}
	for _, k := range []string{"agents", "registries"} { // the design has no local toolset
		if !kinds[k] {
			t.Errorf("goa gen would write no %s package; got %d files", k, len(files))
		}
	}
}
