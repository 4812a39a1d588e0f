package dsl

import (
	"fmt"
	"reflect"

	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
)

// misuse records a misplaced call or a bad argument made from the current DSL
// context at the design line that made it.
func misuse(format string, args ...any) {
	expr.Root.RecordMisuse(eval.Current(), expr.DesignLocation(), fmt.Errorf(format, args...))
}

// bodyOf returns the single optional DSL function of fns, recording a misuse
// when more than one is given.
func bodyOf(word string, fns []func()) func() {
	switch len(fns) {
	case 0:
		return nil
	case 1:
		return fns[0]
	default:
		misuse("%s accepts at most one DSL function, got %d", word, len(fns))
		return fns[0]
	}
}

// describe names a value given to a DSL word the way the design reads it,
// never as Go internals: a Goa type or a design expression by its kind and
// name, a DSL function as such, a basic value with its Go type.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return fmt.Sprintf("the string %q", x)
	case func():
		return "a DSL function"
	case *expr.ToolsetExpr:
		if x == nil {
			return "a nil toolset"
		}
		return fmt.Sprintf("toolset %q", x.Name)
	case *expr.RegistryExpr:
		if x == nil {
			return "a nil registry"
		}
		return fmt.Sprintf("registry %q", x.Name)
	case goaexpr.UserType:
		if reflect.ValueOf(x).IsNil() {
			return "a nil type"
		}
		return fmt.Sprintf("type %q (a Goa type)", x.Name())
	case goaexpr.DataType:
		if reflect.ValueOf(x).Kind() == reflect.Pointer && reflect.ValueOf(x).IsNil() {
			return "a nil type"
		}
		return fmt.Sprintf("type %s (a Goa type)", x.Name())
	case eval.Expression:
		if reflect.ValueOf(x).Kind() == reflect.Pointer && reflect.ValueOf(x).IsNil() {
			return "a nil design expression"
		}
		return x.EvalName()
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return fmt.Sprintf("%v (type %T)", v, v)
	case reflect.Func:
		return "a Go function that is not a DSL function (func())"
	}
	return fmt.Sprintf("a value of Go type %T", v)
}
