package dsl

import (
	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
)

// Toolset declares a toolset at the top level of a design and returns it for
// Use and Export. It accepts:
//
//	Toolset(name, func() { Tool(...) })                        // a local toolset
//	Toolset(FromRegistry(registry, "records"), func() { ... }) // a registry toolset named "records"
//	Toolset(name, FromRegistry(registry, "records"))           // the same under a local name
//	Toolset(FromExternalMCP("files", "fs"), func() { Tool(...) }) // declared tools of an MCP server
//	Toolset(FromExternalMCP("everything", "everything"))          // an MCP server's tools, listed at run time
//	Toolset(FromMCP("records", "records"))                        // a Goa service of the design served over MCP
//
// The DSL of a registry toolset may pin its version with Goa's Version; it
// may not declare tools, tags or publications, which belong to the registry.
func Toolset(args ...any) *expr.ToolsetExpr {
	ts := &expr.ToolsetExpr{At: expr.DesignLocation()}
	if !parseToolsetArgs(ts, args) {
		return ts
	}
	if _, ok := eval.Current().(eval.TopExpr); !ok {
		misuse("Toolset %q must be declared at the top level of the design", ts.Name)
		return ts
	}
	expr.Root.Toolsets = append(expr.Root.Toolsets, ts)
	return ts
}

// parseToolsetArgs fills ts from the Toolset arguments, recording a misuse
// and returning false when they do not match an accepted form.
func parseToolsetArgs(ts *expr.ToolsetExpr, args []any) bool {
	const forms = "(name, func()), (SOURCE), (SOURCE, func()), (name, SOURCE) or (name, SOURCE, func()), SOURCE being FromRegistry(...), FromExternalMCP(...) or FromMCP(...)"
	rest := args
	named := false
	if len(rest) > 0 {
		if name, ok := rest[0].(string); ok {
			ts.Name, named = name, true
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		if src, ok := rest[0].(*expr.RegistrySource); ok {
			if src == nil {
				misuse("Toolset: FromRegistry source is nil")
				return false
			}
			ts.Source = src
			if !named {
				ts.Name = src.Toolset
			}
			rest = rest[1:]
		} else if src, ok := rest[0].(*expr.MCPSource); ok {
			if src == nil {
				misuse("Toolset: MCP source is nil")
				return false
			}
			ts.MCP = src
			if !named {
				ts.Name = src.Toolset
			}
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		if fn, ok := rest[0].(func()); ok {
			ts.DSLFunc = fn
			rest = rest[1:]
		}
	}
	switch {
	case len(args) == 0:
		misuse("Toolset needs arguments: %s", forms)
		return false
	case len(rest) > 0:
		misuse("Toolset cannot use %s: accepted forms are %s", describe(rest[0]), forms)
		return false
	case ts.Source == nil && ts.MCP == nil && ts.DSLFunc == nil:
		misuse("local Toolset %q needs a DSL function that declares its tools", ts.Name)
		return false
	}
	return true
}

// Tags adds tags to the current toolset or tool. Tags of a registry toolset
// come from the registry and are rejected on a local reference to it.
func Tags(values ...string) {
	at := expr.DesignLocation()
	var tags *[]expr.Tag
	switch e := eval.Current().(type) {
	case *expr.ToolsetExpr:
		tags = &e.Tags
	case *expr.ToolExpr:
		tags = &e.Tags
	default:
		misuse("Tags must appear in a Toolset or a Tool")
		return
	}
	if len(values) == 0 {
		misuse("Tags needs at least one tag")
		return
	}
	for _, v := range values {
		*tags = append(*tags, expr.Tag{Value: v, At: at})
	}
}
