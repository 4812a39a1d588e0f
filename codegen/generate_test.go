package codegen_test

import (
	"errors"
	"testing"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/testdata/designs/localtoolset"
)

func TestGenerate(t *testing.T) {
	cases := []struct {
		name       string
		outDir     string
		importPath string
		wantErr    bool
	}{
		{"output directory", t.TempDir(), "example.com/app/gen", false},
		{"empty output directory", "", "example.com/app/gen", true},
		{"empty import path", t.TempDir(), "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := designtest.Run(t, localtoolset.Design); err != nil {
				t.Fatalf("design: %v", err)
			}
			files, err := codegen.Generate(tc.outDir, tc.importPath)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Generate(%q, %q) error = %v, want error %v", tc.outDir, tc.importPath, err, tc.wantErr)
			}
			if !tc.wantErr && len(files) == 0 {
				t.Fatal("Generate wrote no file")
			}
		})
	}
}

func TestGenerateRefusesFailedEvaluation(t *testing.T) {
	if _, err := designtest.Run(t, localtoolset.Design); err != nil {
		t.Fatalf("design: %v", err)
	}
	eval.Context.Errors = eval.MultiError{{GoError: errors.New("bad design")}}
	t.Cleanup(func() { eval.Context.Errors = nil })
	_, err := codegen.Generate(t.TempDir(), "example.com/app/gen")
	if !errors.Is(err, codegen.ErrNotEvaluated) {
		t.Fatalf("Generate after a failed evaluation = %v, want ErrNotEvaluated", err)
	}
}
