package main

// The names an imported design file declares must be new in its design
// package: a --toolset or a nested type named like a variable another
// file of the package declares would not compile, and is refused before
// the file is written.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// checkDesignNames returns an error naming the first of names that a Go
// file of out's directory other than out declares at package level.
func checkDesignNames(out string, names []string) error {
	dir := filepath.Dir(out)
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") || sameFile(path, out) {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("read the design package: %w", err)
		}
		for _, decl := range f.Decls {
			for _, id := range declaredIdents(decl) {
				if want[id.Name] {
					return fmt.Errorf("%s already declares %s: the file would declare it again; choose another --toolset (its name starts every name the file declares)", fset.Position(id.Pos()), id.Name)
				}
			}
		}
	}
	return nil
}

// declaredIdents returns the package-level names a declaration declares.
func declaredIdents(decl ast.Decl) []*ast.Ident {
	var ids []*ast.Ident
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			ids = append(ids, d.Name)
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.ValueSpec:
				ids = append(ids, s.Names...)
			case *ast.TypeSpec:
				ids = append(ids, s.Name)
			}
		}
	}
	return ids
}

// sameFile reports whether two paths name one file.
func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
