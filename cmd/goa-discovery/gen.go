package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

// runGen implements "goa-discovery gen [-o DIR] [-v] [--debug] DESIGN_IMPORT_PATH",
// flags before or after the path, as the go command takes them: it evaluates and validates the design and generates its packages under DIR,
// printing the files it wrote or removed (-v: every generated file), relative
// to the working directory. Design errors are printed verbatim on stderr with
// exit status 1. An
// interrupt stops the build or the run and still removes the temporary
// generator program.
func runGen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "gen", "output `DIR` of the generated packages, inside a Go module")
	verbose := fs.Bool("v", false, "list every generated file, unchanged ones too")
	debug := fs.Bool("debug", false, "keep the temporary generator program and print where it is")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery gen [-o DIR] [-v] [--debug] DESIGN_IMPORT_PATH")
		fs.PrintDefaults()
	}
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(paths) != 1 {
		fmt.Fprintf(stderr, "goa-discovery gen: want one design import path, got %d\n", len(paths))
		fs.Usage()
		return 2
	}
	outDir, err := filepath.Abs(*out)
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery gen: output directory: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := gen(ctx, paths[0], outDir, genOptions{verbose: *verbose, debug: *debug}, stdout, stderr); err != nil {
		if !errors.Is(err, errDesign) {
			fmt.Fprintf(stderr, "goa-discovery gen: %v\n", err)
		}
		return 1
	}
	return 0
}

// genOptions are the flags of gen that change what it prints or keeps.
type genOptions struct {
	// verbose lists unchanged generated files too.
	verbose bool
	// debug keeps the generator program.
	debug bool
}

// gen resolves, writes, builds and runs the generator program for the design,
// and removes it unless opts.debug is set, also when ctx ends the build or
// the run early.
func gen(ctx context.Context, designPath, outDir string, opts genOptions, stdout, stderr io.Writer) (err error) {
	d, err := resolveDesign(ctx, designPath)
	if err != nil {
		return err
	}
	importPath, err := outputImportPath(outDir)
	if err != nil {
		return err
	}
	g := &generatorRun{design: d, outDir: outDir, importPath: importPath, verbose: opts.verbose, stdout: stdout, stderr: stderr}
	defer func() {
		if opts.debug {
			if g.dir != "" {
				fmt.Fprintf(stderr, "goa-discovery gen: kept generator program in %s\n", relativeToWorkdir(g.dir))
			}
			return
		}
		err = errors.Join(err, g.remove())
	}()
	if err := g.write(); err != nil {
		return err
	}
	if err := g.build(ctx); err != nil {
		return err
	}
	return g.run(ctx)
}
