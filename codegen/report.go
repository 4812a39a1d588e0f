package codegen

// This file prints what Generate did, the way gen reports it: the files it
// wrote or removed, relative to the working directory, so that a run that
// changed nothing prints nothing.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Report writes one line per file that Generate wrote ("PATH") or removed
// ("removed PATH"), and with verbose also per file it left unchanged
// ("PATH (unchanged)"). Paths are relative to the working directory when
// they are below it or close to it.
func Report(w io.Writer, files []File, verbose bool) error {
	wd, _ := os.Getwd() // an unknown working directory leaves paths absolute
	for _, f := range files {
		p := relativeTo(wd, f.Path)
		var err error
		switch f.Change {
		case Written:
			_, err = fmt.Fprintln(w, p)
		case Removed:
			_, err = fmt.Fprintln(w, "removed", p)
		case Unchanged:
			if verbose {
				_, err = fmt.Fprintln(w, p, "(unchanged)")
			}
		}
		if err != nil {
			return fmt.Errorf("report generated files: %w", err)
		}
	}
	return nil
}

// shown returns path as gen prints it in errors: relative to the working
// directory.
func shown(path string) string {
	wd, _ := os.Getwd() // an unknown working directory leaves path absolute
	return relativeTo(wd, path)
}

// relativeTo returns path relative to dir, or path unchanged when dir is
// empty or the two share no root.
func relativeTo(dir, path string) string {
	if dir == "" {
		return path
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return rel
}
