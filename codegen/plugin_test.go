package codegen_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	goacodegen "goa.design/goa/v3/codegen"
	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/testdata/designs/agentexport"
)

// TestGoaPluginWritesWhatGenerateWrites checks that the files the plugin adds
// to Goa's output set, rendered the way "goa gen" renders them, are the
// files Generate writes, byte for byte, under gen/, and that Goa's own files
// are kept.
func TestGoaPluginWritesWhatGenerateWrites(t *testing.T) {
	const genpkg = "example.com/app/gen"
	root, err := designtest.Run(t, agentexport.Design)
	if err != nil {
		t.Fatalf("design: %v", err)
	}
	standalone := t.TempDir()
	if _, err := codegen.Generate(standalone, genpkg); err != nil {
		t.Fatal(err)
	}
	goaFile := &goacodegen.File{Path: filepath.Join("gen", "svc", "service.go"), SectionTemplates: []*goacodegen.SectionTemplate{{Name: "goa", Source: "package svc\n"}}}
	files, err := codegen.GoaPlugin(genpkg, []eval.Root{goaexpr.Root, root}, []*goacodegen.File{goaFile})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 || files[0] != goaFile {
		t.Fatalf("plugin returned %d files, want Goa's file first and its own after", len(files))
	}
	plugin := t.TempDir()
	for _, f := range files[1:] {
		if _, err := f.Render(plugin); err != nil {
			t.Fatalf("render %s: %v", f.Path, err)
		}
	}
	want := golden.ReadTree(t, standalone)
	got := golden.ReadTree(t, filepath.Join(plugin, "gen"))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("goa gen would write (-generate +plugin):\n%s", diff)
	}
}

// TestGoaPluginWithoutRoot checks that a design without the goa-discovery
// root leaves Goa's files as they are.
func TestGoaPluginWithoutRoot(t *testing.T) {
	goaFile := &goacodegen.File{Path: "gen/svc/service.go"}
	files, err := codegen.GoaPlugin("example.com/app/gen", []eval.Root{goaexpr.Root}, []*goacodegen.File{goaFile})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != goaFile {
		t.Errorf("plugin returned %v, want Goa's file only", files)
	}
}
