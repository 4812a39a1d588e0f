package codegen

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
)

// ErrNotEvaluated is returned by Generate when the design did not evaluate
// cleanly: eval.RunDSL must succeed before code is generated.
var ErrNotEvaluated = errors.New("design not evaluated")

// Generate generates the packages of the evaluated design (expr.Root) under
// outDir, whose Go import path is importPath, and returns the paths of the
// files it wrote, sorted.
//
// It must run after eval.RunDSL returned nil, which guarantees that every
// validation rule holds; generators never re-check what validation proved.
// It writes only inside outDir and refuses to replace a file that it did not
// generate (ErrNotGenerated); the same design always gives the same bytes.
func Generate(outDir, importPath string) ([]string, error) {
	if outDir == "" {
		return nil, errors.New("generate: empty output directory")
	}
	if importPath == "" {
		return nil, errors.New("generate: empty import path of the output directory")
	}
	abs, err := filepath.Abs(outDir)
	if err != nil {
		return nil, fmt.Errorf("generate: output directory %q: %w", outDir, err)
	}
	if eval.Context.Errors != nil {
		return nil, fmt.Errorf("generate: %w: %w", ErrNotEvaluated, eval.Context.Errors)
	}
	if expr.Root == nil {
		return nil, fmt.Errorf("generate: %w: no goa-discovery root registered", ErrNotEvaluated)
	}
	files, err := render(expr.Root, importPath)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	written, err := writeOutputs(abs, files)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	return written, nil
}

// render builds the IR of root and renders every file, in a fixed order.
func render(root *expr.RootExpr, importPath string) ([]output, error) {
	d, err := buildIR(root, importPath)
	if err != nil {
		return nil, err
	}
	var files []*genFile
	for _, ts := range d.toolsets {
		tf, err := toolsetFiles(ts)
		if err != nil {
			return nil, err
		}
		files = append(files, tf...)
	}
	for _, a := range d.agents {
		af, err := agentFiles(a)
		if err != nil {
			return nil, err
		}
		files = append(files, af...)
	}
	for _, r := range d.registries {
		files = append(files, registryFiles(r)...)
	}
	return renderAll(files)
}

// renderAll renders files on every CPU; formatting dominates generation.
// The result keeps the order of files.
func renderAll(files []*genFile) ([]output, error) {
	out := make([]output, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				src, err := files[i].render()
				out[i], errs[i] = output{path: files[i].path, content: src}, err
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}
