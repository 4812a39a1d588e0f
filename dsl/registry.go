package dsl

import (
	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
)

// Registry declares a tool registry at the top level of a design. Its DSL
// must set the registry endpoint with Goa's URL (absolute http or https) and
// may use Description and Meta.
//
//	var Company = Registry("company", func() { URL("https://registry.example") })
func Registry(name string, fn func()) *expr.RegistryExpr {
	r := &expr.RegistryExpr{Name: name, DSLFunc: fn, At: expr.DesignLocation()}
	if _, ok := eval.Current().(eval.TopExpr); !ok {
		misuse("Registry %q must be declared at the top level of the design", name)
		return r
	}
	expr.Root.Registries = append(expr.Root.Registries, r)
	return r
}

// FromRegistry names a toolset published in a registry. Give it to Toolset
// to declare a local reference to it; the reference name defaults to the
// registry toolset name.
//
//	var Remote = Toolset(FromRegistry(Company, "records"), func() { Version("1.2.3") })
func FromRegistry(registry *expr.RegistryExpr, toolset string) *expr.RegistrySource {
	return &expr.RegistrySource{Registry: registry, Toolset: toolset, At: expr.DesignLocation()}
}

// PublishTo publishes the current local toolset to a registry. It must appear
// in a Toolset DSL.
func PublishTo(registry *expr.RegistryExpr) {
	ts, ok := eval.Current().(*expr.ToolsetExpr)
	if !ok {
		misuse("PublishTo must appear in a Toolset")
		return
	}
	ts.Publications = append(ts.Publications, &expr.Publication{Registry: registry, At: expr.DesignLocation()})
}
