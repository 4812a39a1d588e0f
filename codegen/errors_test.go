package codegen_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	. "goa.design/goa/v3/dsl"

	"github.com/goa-discovery/goa-discovery/codegen"
	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// Validation rejects, at the design's lines, every Go identifier that two
// declarations of a toolset package would share and every field that would
// hide SetDefaults (package expr), with the structs package gonames lists.
// TestDeclaredTypesAreThoseValidationChecks proves that code generation
// declares exactly those structs, in that order, so the two cannot drift.
func TestDeclaredTypesAreThoseValidationChecks(t *testing.T) {
	designs := append([]struct {
		name   string
		design func()
	}{{"nested types", nestedTypes}}, goldenDesigns...)
	for _, gd := range designs {
		t.Run(gd.name, func(t *testing.T) {
			root, err := designtest.Run(t, gd.design)
			if err != nil {
				t.Fatalf("design: %v", err)
			}
			got, err := codegen.DeclaredTypes(root)
			if err != nil {
				t.Fatalf("DeclaredTypes: %v", err)
			}
			if diff := cmp.Diff(checkedStructs(root), got); diff != "" {
				t.Errorf("declared types (-checked +declared):\n%s", diff)
			}
		})
	}
}

// checkedStructs returns, for each local toolset of root, the structs
// validation checks, walking its tools' Args then Return as it does.
func checkedStructs(root *expr.RootExpr) map[string][]string {
	out := map[string][]string{}
	for _, ts := range root.Toolsets {
		if ts.IsDynamic() {
			continue
		}
		d := gonames.NewDeclarer()
		names := []string{}
		for _, t := range ts.Tools {
			if t.Args != nil {
				for _, s := range d.Structs(t.Args, gonames.ArgsType(t.Name), "Args") {
					names = append(names, s.Name)
				}
			}
			if t.Return != nil {
				for _, s := range d.Structs(t.Return, gonames.ResultType(t.Name), "Return") {
					names = append(names, s.Name)
				}
			}
		}
		out[ts.Name] = names
	}
	return out
}

// nestedTypes nests inline objects and user types in every position a
// struct can take: members, array items, map values, shared user types and
// user types that are not objects.
func nestedTypes() {
	record := Type("Record", func() {
		Attribute("id", String)
		Attribute("meta", func() { Attribute("owner", String) })
	})
	records := Type("Records", ArrayOf(record))
	page := Type("Page", func() {
		Attribute("items", records)
		Attribute("by_owner", MapOf(String, record))
		Attribute("cursor", func() {
			Attribute("next", func() { Attribute("token", String) })
		})
	})
	Toolset("records", func() {
		Tool("find", "Find records", func() {
			Args(func() {
				Attribute("filter", func() { Attribute("owner", String) })
				Attribute("examples", ArrayOf(record))
			})
			Return(page)
		})
		Tool("get", "Get a record", func() {
			Args(record)
			Return(func() { Attribute("record", record); Attribute("extra", func() { Attribute("n", Int) }) })
		})
	})
}

// TestLocalToolMayBeNamedServer checks that only the package of an MCP
// toolset claims the identifier Server.
func TestLocalToolMayBeNamedServer(t *testing.T) {
	files := generate(t, func() {
		Toolset("hosts", func() { Tool("server", "Describe a server") })
	}, "example.com/local")
	if _, ok := files["toolsets/hosts/toolset.go"]; !ok {
		t.Fatalf("no toolset package in %d files", len(files))
	}
}
