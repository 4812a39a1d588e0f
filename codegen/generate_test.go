package codegen_test

import (
	"errors"
	"testing"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/expr"
	_ "github.com/goa-discovery/goa-discovery/testdata/designs/good"
)

// TestGenerate runs the good design the way the gen program does: the design
// package registered its DSL when it was loaded, eval.RunDSL evaluates it,
// then Generate runs.
func TestGenerate(t *testing.T) {
	if err := eval.RunDSL(); err != nil {
		t.Fatalf("RunDSL: %v", err)
	}
	if got := len(expr.Root.Agents); got != 2 {
		t.Fatalf("design has %d agents, want 2", got)
	}
	cases := []struct {
		name    string
		outDir  string
		wantErr bool
	}{
		{"output directory", t.TempDir(), false},
		{"empty output directory", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files, err := codegen.Generate(tc.outDir, "example.com/app/gen")
			if (err != nil) != tc.wantErr {
				t.Fatalf("Generate(%q) error = %v, want error %v", tc.outDir, err, tc.wantErr)
			}
			if !tc.wantErr && len(files) == 0 {
				t.Fatal("Generate wrote no file")
			}
		})
	}
}

func TestGenerateRefusesFailedEvaluation(t *testing.T) {
	saved := eval.Context.Errors
	t.Cleanup(func() { eval.Context.Errors = saved })
	eval.Context.Errors = eval.MultiError{{GoError: errors.New("bad design")}}
	_, err := codegen.Generate(t.TempDir(), "example.com/app/gen")
	if !errors.Is(err, codegen.ErrNotEvaluated) {
		t.Fatalf("Generate after a failed evaluation = %v, want ErrNotEvaluated", err)
	}
}
