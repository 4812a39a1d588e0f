package codegen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
)

// TestGoldenDocComments checks that every exported identifier of the golden
// files (declarations, struct fields and interface methods) has a doc
// comment, and that every package has its package comment in doc.go and in
// no other file.
func TestGoldenDocComments(t *testing.T) {
	packages := map[string]bool{} // directory -> doc.go has the package comment
	for _, gd := range goldenDesigns {
		dir := filepath.Join(goldenRoot, gd.name)
		for name, src := range golden.ReadTree(t, dir) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
			if err != nil {
				t.Fatalf("%s/%s: %v", gd.name, name, err)
			}
			pkgDir := gd.name + "/" + filepath.ToSlash(filepath.Dir(name))
			isDoc := filepath.Base(name) == "doc.go"
			packages[pkgDir] = packages[pkgDir] || isDoc && f.Doc != nil
			if !isDoc && f.Doc != nil {
				t.Errorf("%s/%s: package comment outside doc.go", gd.name, name)
			}
			if isDoc && len(f.Decls) > 0 {
				t.Errorf("%s/%s: doc.go declares %d identifiers; it holds the package comment only", gd.name, name, len(f.Decls))
			}
			for _, missing := range undocumented(f) {
				t.Errorf("%s/%s: %s has no doc comment", gd.name, name, missing)
			}
		}
	}
	for dir, ok := range packages {
		if !ok {
			t.Errorf("package %s has no doc.go with a package comment", dir)
		}
	}
}

// undocumented lists the exported identifiers of f without a doc comment.
func undocumented(f *ast.File) []string {
	var missing []string
	check := func(name string, docs ...*ast.CommentGroup) {
		if !ast.IsExported(name) {
			return
		}
		for _, d := range docs {
			if d != nil && strings.TrimSpace(d.Text()) != "" {
				return
			}
		}
		missing = append(missing, name)
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				check(d.Name.Name, d.Doc)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						check(n.Name, s.Doc, groupDoc(d))
					}
				case *ast.TypeSpec:
					check(s.Name.Name, s.Doc, d.Doc)
					checkMembers(s, check)
				}
			}
		}
	}
	return missing
}

// groupDoc returns the doc of a declaration that declares a single spec;
// specs of a group need their own.
func groupDoc(d *ast.GenDecl) *ast.CommentGroup {
	if len(d.Specs) == 1 {
		return d.Doc
	}
	return nil
}

// checkMembers checks the fields of a struct and the methods of an
// interface.
func checkMembers(s *ast.TypeSpec, check func(string, ...*ast.CommentGroup)) {
	var list *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list = t.Methods
	default:
		return
	}
	for _, field := range list.List {
		for _, n := range field.Names {
			check(s.Name.Name+"."+n.Name, field.Doc)
		}
	}
}
