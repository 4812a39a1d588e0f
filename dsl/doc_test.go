package dsl_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocExampleCompiles compiles the design of the package documentation
// as a package of this module: its code lines, dot-importing Goa's DSL and
// this one.
func TestDocExampleCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if strings.HasPrefix(line, "\t") {
			code = append(code, line[1:])
		} else if line == "" && len(code) > 0 {
			code = append(code, "")
		}
	}
	if len(code) == 0 {
		t.Fatal("the package documentation has no code")
	}
	src := "package docexample\n\nimport (\n\t. \"goa.design/goa/v3/dsl\"\n\n\t. \"github.com/goa-discovery/goa-discovery/dsl\"\n)\n\n" + strings.Join(code, "\n") + "\n"
	dir, err := os.MkdirTemp("..", "docexample-") // inside the module, removed below
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "design.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "./"+filepath.Base(dir))
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the documented design does not compile: %v\n%s\n%s", err, out, src)
	}
}
