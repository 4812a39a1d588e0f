package main

// This file runs a design the way "goa gen" does: it resolves the design
// package, writes a temporary main package that imports it inside the
// design's module (so that the module's go.mod and go.sum decide every
// dependency version), builds it, runs it and removes it. The program needs
// nothing beyond what the design imports when the design imports the DSL
// (which imports the generators); otherwise gen completes go.mod and go.sum
// with "go get" of the program, as "goa gen" does for its own program.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// tempDirPrefix prefixes the temporary directory of the generator program.
const tempDirPrefix = "goa-discovery-gen-"

// errDesign reports that the design was evaluated and found invalid; the
// program already wrote the design errors.
var errDesign = errors.New("design has errors")

// design is a resolved design package.
type design struct {
	// importPath is the design package import path.
	importPath string
	// moduleDir is the root directory of the main module that holds the
	// design, and modulePath its module path.
	moduleDir, modulePath string
	// vendored is set when the module has a vendor directory: every
	// dependency must then be vendored, and gen never runs "go get".
	vendored bool
}

// resolveDesign loads the design package with go/packages and checks that it
// belongs to the main module, where the generator program is built.
func resolveDesign(ctx context.Context, importPath string) (*design, error) {
	cfg := &packages.Config{Context: ctx, Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule}
	pkgs, err := packages.Load(cfg, importPath)
	if err != nil {
		return nil, fmt.Errorf("load design package %q: %w", importPath, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("design %q matches %d packages, want exactly one", importPath, len(pkgs))
	}
	pkg := pkgs[0]
	if len(pkg.Errors) > 0 {
		msgs := make([]string, len(pkg.Errors))
		for i, e := range pkg.Errors {
			msgs[i] = e.Error()
		}
		return nil, fmt.Errorf("load design package %q:\n%s", importPath, strings.Join(msgs, "\n"))
	}
	if pkg.Module == nil || !pkg.Module.Main {
		return nil, fmt.Errorf("design package %q is not in the main module: run gen from the module that holds the design", importPath)
	}
	d := &design{importPath: pkg.PkgPath, moduleDir: pkg.Module.Dir, modulePath: pkg.Module.Path}
	if info, err := os.Stat(filepath.Join(d.moduleDir, "vendor")); err == nil && info.IsDir() {
		d.vendored = true
	}
	return d, nil
}

// generatorRun is one run of the generator program.
type generatorRun struct {
	design *design
	// outDir is the absolute output directory and importPath its Go import
	// path.
	outDir, importPath string
	// verbose makes the program list unchanged files too.
	verbose bool
	// args, when set, replace the program's generation flags.
	args []string
	// dir is the temporary directory of the program, inside the module.
	dir string
	// stdout receives the paths of the generated files, stderr the design
	// errors.
	stdout, stderr io.Writer
}

// write creates the temporary directory and the program's main.go.
func (g *generatorRun) write() error {
	src, err := generatorMain(g.design.importPath)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(g.design.moduleDir, tempDirPrefix)
	if err != nil {
		return fmt.Errorf("create generator directory: %w", err)
	}
	g.dir = dir
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		return fmt.Errorf("write generator program: %w", err)
	}
	return nil
}

// binary returns the path of the built program.
func (g *generatorRun) binary() string {
	name := "generator"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(g.dir, name)
}

// pkgPath returns the import path of the program's package.
func (g *generatorRun) pkgPath() string {
	return g.design.modulePath + "/" + filepath.Base(g.dir)
}

// build compiles the program with the go command's defaults, from the
// working directory so that compile errors in the design are printed
// relative to it. When the build misses a module requirement or a checksum
// (a design that does not import the DSL, or a go.mod that is not tidy), gen
// adds them with "go get" of the program, as "goa gen" does for its own
// program, says so on stderr, and builds again; a vendored module is never
// changed.
func (g *generatorRun) build(ctx context.Context) error {
	out, err := g.compile(ctx)
	if err != nil && !g.design.vendored && ctx.Err() == nil && missesModules(out) {
		if out, err := g.goCommand(ctx, "get", g.pkgPath()); err != nil {
			return fmt.Errorf("complete go.mod for the generator program: %w\n%s", err, bytes.TrimSpace(out))
		}
		fmt.Fprintln(g.stderr, "goa-discovery gen: added the generator program's requirements to go.mod and go.sum (go get)")
		out, err = g.compile(ctx)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("build generator program: %w", ctxErr)
	}
	if err != nil {
		return fmt.Errorf("build generator program: %w\n%s", err, bytes.TrimSpace(out))
	}
	return nil
}

// compile runs "go build -v" of the program, announcing on stderr a build
// that compiles dependencies (see buildProgress), and returns the compiler's
// output without the package names.
func (g *generatorRun) compile(ctx context.Context) ([]byte, error) {
	p := newBuildProgress(g.stderr)
	cmd := exec.CommandContext(ctx, "go", "build", "-v", "-o", g.binary(), g.pkgPath())
	cmd.Stdout, cmd.Stderr = p, p
	err := cmd.Run()
	return p.finish(), err
}

// goCommand runs the go command with args in the working directory and
// returns its combined output.
func (g *generatorRun) goCommand(ctx context.Context, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, "go", args...).CombinedOutput()
}

// missesModules reports whether go command output says that a package's
// module is not required or its checksum is missing from go.sum.
func missesModules(out []byte) bool {
	return bytes.Contains(out, []byte("missing go.sum entry")) || bytes.Contains(out, []byte("no required module provides package"))
}

// run runs the program in the current directory, so that design error
// locations are relative to it, copying its output verbatim. It returns
// errDesign when the program reports design errors.
func (g *generatorRun) run(ctx context.Context) error {
	args := g.args
	if args == nil {
		args = []string{"--output=" + g.outDir, "--import-path=" + g.importPath, "--verbose=" + strconv.FormatBool(g.verbose)}
	}
	cmd := exec.CommandContext(ctx, g.binary(), args...)
	cmd.Stdout = g.stdout
	cmd.Stderr = g.stderr
	err := cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("run generator program: %w", ctxErr)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return errDesign
	}
	if err != nil {
		return fmt.Errorf("run generator program: %w", err)
	}
	return nil
}

// remove deletes the temporary directory.
func (g *generatorRun) remove() error {
	if g.dir == "" {
		return nil
	}
	if err := os.RemoveAll(g.dir); err != nil {
		return fmt.Errorf("remove generator directory: %w", err)
	}
	return nil
}

// relativeToWorkdir returns path relative to the working directory, or path
// unchanged when it cannot be made relative.
func relativeToWorkdir(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		return path
	}
	return rel
}
