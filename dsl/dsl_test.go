package dsl_test

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// The design test files of this package dot-import both goa.design/goa/v3/dsl
// and this package: the package compiling proves that no exported name
// collides.

// wantErr is one expected validation error: a substring of its message and
// the marker comment ("// ERR <marker>") on the design line it must point at.
type wantErr struct {
	msg    string
	marker string
}

// designCase is a design that breaks rules and the errors it must produce.
type designCase struct {
	name   string
	design func()
	want   []wantErr
}

// runDesignCases runs each case with designtest.RunCases: the design
// reports exactly the wanted errors, each located at its marker line in the
// calling test file.
func runDesignCases(t *testing.T, cases []designCase) {
	t.Helper()
	run := make([]designtest.Case, len(cases))
	for i, tc := range cases {
		run[i] = designtest.Case{Name: tc.name, Design: tc.design}
		for _, w := range tc.want {
			run[i].Want = append(run[i].Want, designtest.Want{Msg: w.msg, Marker: w.marker})
		}
	}
	designtest.RunCases(t, 1, run)
}
