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
// outDir, whose Go import path is importPath, and returns every file it
// generated, with whether it was rewritten, and every stale file it removed,
// sorted by path.
//
// It must run after eval.RunDSL returned nil, which guarantees that every
// validation rule holds; generators never re-check what validation proved.
// It writes only inside outDir and refuses to replace a file that it did not
// generate (ErrNotGenerated); the same design always gives the same bytes.
func Generate(outDir, importPath string) ([]File, error) {
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

// render builds the IR of root and renders every file, in a fixed order:
// toolset packages, then agent packages, then registry packages, then MCP
// server packages, then the packages of dynamic MCP toolsets, then MCP
// gateway packages.
func render(root *expr.RootExpr, importPath string) ([]output, error) {
	d, err := buildIR(root, importPath)
	if err != nil {
		return nil, err
	}
	pkgs := make([]packageFiles, 0, len(d.toolsets)+len(d.agents)+len(d.registries)+len(d.mcpServers)+len(d.dynamicMCP)+len(d.gateways))
	for _, ts := range d.toolsets {
		pkgs = append(pkgs, func() ([]*genFile, error) { return toolsetFiles(ts) })
	}
	for _, a := range d.agents {
		pkgs = append(pkgs, func() ([]*genFile, error) { return agentFiles(a) })
	}
	for _, r := range d.registries {
		pkgs = append(pkgs, func() ([]*genFile, error) { return registryFiles(r), nil })
	}
	for _, s := range d.mcpServers {
		pkgs = append(pkgs, func() ([]*genFile, error) { return mcpServerFiles(s), nil })
	}
	for _, dyn := range d.dynamicMCP {
		pkgs = append(pkgs, func() ([]*genFile, error) { return dynamicMCPFiles(dyn), nil })
	}
	for _, g := range d.gateways {
		pkgs = append(pkgs, func() ([]*genFile, error) { return gatewayFiles(g), nil })
	}
	return renderAll(pkgs)
}

// packageFiles builds the files of one generated package from the IR, which
// it only reads.
type packageFiles func() ([]*genFile, error)

// renderAll builds and renders the packages on every CPU, one package at a
// time per CPU, so that building is parallel too and a package's syntax
// trees are garbage as soon as it is rendered: memory stays proportional to
// the output, not to the output and every tree at once. The result keeps
// the order of pkgs and of the files of each.
func renderAll(pkgs []packageFiles) ([]output, error) {
	outs := make([][]output, len(pkgs))
	errs := make([]error, len(pkgs))
	parallel(len(pkgs), func(i int) { outs[i], errs[i] = renderPackage(pkgs[i]) })
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var n int
	for _, o := range outs {
		n += len(o)
	}
	out := make([]output, 0, n)
	for _, o := range outs {
		out = append(out, o...)
	}
	return out, nil
}

// renderPackage builds the files of a package and renders them.
func renderPackage(build packageFiles) ([]output, error) {
	files, err := build()
	if err != nil {
		return nil, err
	}
	out := make([]output, len(files))
	var errs []error
	for i, f := range files {
		src, err := f.render()
		out[i] = output{path: f.path, content: src}
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// parallel calls fn(i) for every i in [0, n) on every CPU and returns when
// all calls have returned. Each call must write only what index i owns.
func parallel(n int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
