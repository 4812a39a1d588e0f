package main

// mcp import -o FILE writes into a design package that may already declare
// the names the new file declares; the design would then not compile
// ("Tickets redeclared"). This file refuses such a write before it happens.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// checkNewNames returns an error naming every top-level identifier that src,
// to be written at path, declares and that another Go file of path's
// directory in the same package already declares.
func checkNewNames(path string, src []byte) error {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("parse the design file to write: %w", err)
	}
	target, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(filepath.Dir(target))
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	declared := map[string]token.Position{}
	for _, e := range entries {
		name := filepath.Join(filepath.Dir(target), e.Name())
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") || name == target {
			continue
		}
		other, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil || other.Name.Name != file.Name.Name {
			continue // not part of the package: go build reports it on its own
		}
		for _, id := range topLevelNames(other) {
			declared[id.Name] = fset.Position(id.Pos())
		}
	}
	var clashes []string
	for _, id := range topLevelNames(file) {
		if at, ok := declared[id.Name]; ok {
			at.Filename = shownPath(at.Filename)
			clashes = append(clashes, fmt.Sprintf("%s, which %s already declares", id.Name, at))
		}
	}
	if len(clashes) > 0 {
		return fmt.Errorf("%s would declare %s; nothing written: choose another --toolset (or --agent) name, or write to another package", path, strings.Join(clashes, "; "))
	}
	return nil
}

// topLevelNames returns the package-level identifiers a file declares.
func topLevelNames(f *ast.File) []*ast.Ident {
	var out []*ast.Ident
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				out = append(out, d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							out = append(out, n)
						}
					}
				case *ast.TypeSpec:
					out = append(out, s.Name)
				}
			}
		}
	}
	return out
}

// shownPath returns path relative to the working directory when it is under
// it, else path.
func shownPath(path string) string {
	if rel := relativeToWorkdir(path); !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
