package dsl

import (
	"fmt"

	"goa.design/goa/v3/eval"

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
