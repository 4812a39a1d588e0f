package codegen

import (
	"errors"
	"fmt"
	"path/filepath"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
)

// ErrNotEvaluated is returned by Generate when the design did not evaluate
// cleanly: eval.RunDSL must succeed before code is generated.
var ErrNotEvaluated = errors.New("design not evaluated")

// Generate generates the packages of the evaluated design (expr.Root) under
// outDir and returns the paths of the files it wrote, sorted.
//
// It must run after eval.RunDSL returned nil, which guarantees that every
// validation rule holds; generators never re-check what validation proved.
// No generator exists yet: Generate checks outDir and the evaluation state
// and returns no files.
func Generate(outDir string) ([]string, error) {
	if outDir == "" {
		return nil, errors.New("generate: empty output directory")
	}
	if _, err := filepath.Abs(outDir); err != nil {
		return nil, fmt.Errorf("generate: output directory %q: %w", outDir, err)
	}
	if eval.Context.Errors != nil {
		return nil, fmt.Errorf("generate: %w: %w", ErrNotEvaluated, eval.Context.Errors)
	}
	if expr.Root == nil {
		return nil, fmt.Errorf("generate: %w: no goa-discovery root registered", ErrNotEvaluated)
	}
	return nil, nil
}
