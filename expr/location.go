package expr

// This file records where in a design an expression was declared. Goa locates
// validation errors through an expression's DSL function; expressions that are
// built without one (a Tool without a body, a Deferred call) record the design
// line of the call instead, and errors are reported against that line.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"goa.design/goa/v3/eval"
)

const (
	// ExprPackage is the import path of this package.
	ExprPackage = "github.com/goa-discovery/goa-discovery/expr"
	// DSLPackage is the import path of the DSL package built on this one.
	DSLPackage = "github.com/goa-discovery/goa-discovery/dsl"
	// goaPackages prefixes the import paths of Goa's eval, expr and dsl
	// packages, whose frames never locate a design error.
	goaPackages = "goa.design/goa/v3/"
)

// Location is a position in a design source file.
type Location struct {
	// File is the absolute path of the design file.
	File string
	// Line is the 1-based line number in File.
	Line int
}

// IsZero reports whether l is unknown.
func (l Location) IsZero() bool { return l.File == "" }

// String returns "file:line" with file relative to the working directory when
// possible, the way Goa prints the location of DSL errors.
func (l Location) String() string {
	if l.IsZero() {
		return "unknown location"
	}
	return fmt.Sprintf("%s:%d", relativeToWorkdir(l.File), l.Line)
}

// DesignLocation returns the location of the design code that called into the
// DSL: the first caller frame that belongs neither to this package, nor to the
// DSL package, nor to Goa. Frames in _test.go files always count as design
// code so that tests can declare designs inline.
func DesignLocation() Location {
	pcs := make([]uintptr, 16) // design code is a few frames above; see isDesignFrame
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		frame, more := frames.Next()
		if frame.File != "" && frame.Line != 0 && isDesignFrame(frame) {
			return Location{File: frame.File, Line: frame.Line}
		}
		if !more {
			return Location{}
		}
	}
}

// isDesignFrame reports whether frame belongs to design code.
func isDesignFrame(frame runtime.Frame) bool {
	if strings.HasSuffix(frame.File, "_test.go") {
		return true
	}
	fn := frame.Function
	for _, pkg := range []string{ExprPackage + ".", DSLPackage + ".", goaPackages, "runtime."} {
		if strings.HasPrefix(fn, pkg) {
			return false
		}
	}
	return true
}

// relativeToWorkdir returns file relative to the working directory when it is
// below it or close to it, and file unchanged otherwise.
func relativeToWorkdir(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil {
		return file
	}
	return rel
}

// Site is the expression a validation error is reported against: the
// offending expression and the design location the error points at. Its
// EvalName carries the location so that eval.ValidationErrors prints
// "[file:line] name: message", the same form Goa uses for expressions that
// have a DSL function.
type Site struct {
	// Expr is the offending expression.
	Expr eval.Expression
	// At is the design location the error points at.
	At Location
}

// EvalName returns the location and name of the offending expression.
func (s Site) EvalName() string {
	if s.At.IsZero() {
		return s.Expr.EvalName()
	}
	return fmt.Sprintf("[%s] %s", s.At, s.Expr.EvalName())
}
