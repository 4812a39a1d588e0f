package designtest

import (
	"testing"

	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
)

// Run resets the eval context, runs design as top-level DSL, then runs
// eval.RunDSL. It returns the root the design built and the error of the run
// (nil for a valid design). Tests using it must not run in parallel: Goa's
// eval context is process-wide.
func Run(t testing.TB, design func()) (*expr.RootExpr, error) {
	t.Helper()
	eval.Reset()
	goaexpr.Root = new(goaexpr.RootExpr)
	goaexpr.GeneratedResultTypes = new(goaexpr.ResultTypesRoot)
	expr.Root = expr.NewRoot()
	for _, root := range []eval.Root{goaexpr.Root, goaexpr.GeneratedResultTypes, expr.Root} {
		if err := eval.Register(root); err != nil {
			t.Fatalf("register %s: %v", root.EvalName(), err)
		}
	}
	if !eval.Execute(design, nil) {
		return expr.Root, eval.Context.Errors
	}
	return expr.Root, eval.RunDSL()
}
