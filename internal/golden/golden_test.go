package golden

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// importPath is this package's import path.
const importPath = "github.com/goa-discovery/goa-discovery/internal/golden"

// TestEveryTestPackageImportsGolden walks the module and checks that every
// directory with tests imports this package in one of its test files, so
// that go test ./... -update does not stop at a test binary without the
// flag.
func TestEveryTestPackageImportsGolden(t *testing.T) {
	root := filepath.Join("..", "..")
	self := filepath.Join(root, "internal", "golden") // defines the flag
	importsGolden := map[string]bool{}                // by directory with tests
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || hasGoMod(path)) {
				return filepath.SkipDir // not part of the module's packages
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		importsGolden[dir] = importsGolden[dir] || dir == self
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == importPath {
				importsGolden[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(importsGolden) < 2 {
		t.Fatalf("found tests in %d directories under %s; expected the module's", len(importsGolden), root)
	}
	for _, dir := range slices.Sorted(maps.Keys(importsGolden)) {
		if !importsGolden[dir] {
			t.Errorf("%s: no test file imports %s; go test ./... -update fails there", dir, importPath)
		}
	}
}

// hasGoMod reports whether dir is the root of another module.
func hasGoMod(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}
