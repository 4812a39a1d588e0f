package main

// This file finds the Go import path of the output directory: generated
// packages import each other, so gen must know where they live.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// outputImportPath returns the import path of outDir (absolute, which may not
// exist yet) from the go.mod of the nearest enclosing module.
func outputImportPath(outDir string) (string, error) {
	for dir := outDir; ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			mod := modfile.ModulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s has no module directive", relativeToWorkdir(filepath.Join(dir, "go.mod")))
			}
			rel, err := filepath.Rel(dir, outDir)
			if err != nil {
				return "", fmt.Errorf("output directory %s: %w", outDir, err)
			}
			if rel == "." {
				return mod, nil
			}
			return path.Join(mod, filepath.ToSlash(rel)), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("read go.mod: %w", err)
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", fmt.Errorf("output directory %s is not inside a Go module: generated packages import each other by module path", relativeToWorkdir(outDir))
		}
	}
}
