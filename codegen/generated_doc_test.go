package codegen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// TestGeneratedDocListsToolsetIdentifiers checks that the first column of
// docs/generated.md's tables names every identifier a toolset package
// declares whatever its tools, and every function of the golden local
// toolset package, so that a new generated function cannot land
// undocumented.
func TestGeneratedDocListsToolsetIdentifiers(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "docs", "generated.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := gonames.ToolsetIdentifiers(true)
	pkgs, err := parser.ParseDir(token.NewFileSet(), filepath.Join(goldenRoot, "sharedargs", "toolsets", "tickets"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.IsExported() {
					want = append(want, fn.Name.Name)
				}
			}
		}
	}
	if len(want) <= len(gonames.ToolsetIdentifiers(true)) {
		t.Fatal("the golden toolset package declares no functions")
	}
	listed := tableIdentifiers(string(text))
	for _, id := range want {
		if !listed[id] {
			t.Errorf("no table of docs/generated.md lists %s", id)
		}
	}
}

// tableIdentifiers returns the identifiers that the first cells of the
// tables in text name in code spans, without their arguments: "| `Spec(id)`,
// `Specs()` |" names Spec and Specs.
func tableIdentifiers(text string) map[string]bool {
	ids := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "|") || len(cells) < 3 {
			continue
		}
		spans := strings.Split(cells[1], "`")
		for i := 1; i < len(spans); i += 2 {
			name, _, _ := strings.Cut(spans[i], "(")
			ids[name] = true
		}
	}
	return ids
}
