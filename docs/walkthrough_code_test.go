package docs

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// thisModule is the module path of this repository.
const thisModule = "github.com/goa-discovery/goa-discovery"

// TestWalkthroughCode checks the Go blocks of the walkthroughs without
// building them: each is a whole gofmt'ed file whose first line names its
// path, and each name it takes from a package of this module is one that
// package exports, so that a renamed API fails here, before the e2e walk.
func TestWalkthroughCode(t *testing.T) {
	exported := map[string]map[string]bool{} // by import path
	for page := range walkthroughs {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range goBlock.FindAllStringSubmatch(string(data), -1) {
			first, src, _ := strings.Cut(m[1], "\n")
			path, ok := strings.CutPrefix(first, "// ")
			if !ok || !strings.HasSuffix(path, ".go") {
				t.Errorf("%s, Go block %d does not start with the line // PATH.go: %q", page, i+1, first)
				continue
			}
			src = strings.TrimPrefix(src, "\n")
			if formatted, err := format.Source([]byte(src)); err != nil || string(formatted) != src {
				t.Errorf("%s: %s does not parse or is not gofmt'ed: %v", page, path, err)
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			imports := map[string]string{} // package name -> import path
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				rel, ok := strings.CutPrefix(ip, thisModule+"/")
				if !ok {
					continue
				}
				if exported[ip] == nil {
					exported[ip] = packageExports(t, filepath.Join("..", filepath.FromSlash(rel)))
				}
				name := filepath.Base(ip)
				if imp.Name != nil {
					name = imp.Name.Name
				}
				imports[name] = ip
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				if ip, ok := imports[x.Name]; ok && !exported[ip][sel.Sel.Name] {
					t.Errorf("%s: %s uses %s.%s, which %s does not declare", page, path, x.Name, sel.Sel.Name, ip)
				}
				return true
			})
		}
	}
}

// packageExports returns the exported package-level names of the Go
// package in dir, tests aside.
func packageExports(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no package at %s: %v", dir, err)
	}
	out := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = true
						}
					case *ast.TypeSpec:
						out[s.Name.Name] = true
					}
				}
			}
		}
	}
	return out
}
