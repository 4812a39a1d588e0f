package main

// The first gen in a module compiles the generator program with every
// package it depends on (Goa, the generators, jennifer...), which takes tens
// of seconds; later runs find them in the Go build cache. gen builds with
// "go build -v", which names each package it compiles, and says what it is
// doing once the count shows that dependencies are being compiled, so that a
// first run does not wait without a word.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
)

// progressAfter is how many compiled packages make gen announce the build:
// more than the design package and the program itself, which every gen after
// a design change compiles.
const progressAfter = 5

// buildProgress reads the output of "go build -v": it counts the lines that
// name a compiled package, announces the build on w once progressAfter
// packages were compiled, and keeps every other line (the compiler's
// messages) for the caller.
type buildProgress struct {
	w        io.Writer
	start    time.Time
	compiled int
	partial  []byte
	output   bytes.Buffer
}

// newBuildProgress returns a buildProgress that announces on w.
func newBuildProgress(w io.Writer) *buildProgress {
	return &buildProgress{w: w, start: time.Now()}
}

// Write implements io.Writer over the build's output, line by line.
func (p *buildProgress) Write(b []byte) (int, error) {
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.line(string(p.partial[:i+1]))
		p.partial = p.partial[i+1:]
	}
}

func (p *buildProgress) line(l string) {
	if !isPackageLine(strings.TrimSuffix(l, "\n")) {
		p.output.WriteString(l)
		return
	}
	p.compiled++
	if p.compiled == progressAfter {
		fmt.Fprintln(p.w, "goa-discovery gen: compiling the generator program and its dependencies; the first gen in a module takes a while, later ones use the Go build cache")
	}
}

// isPackageLine reports whether a line of "go build -v" names a package it
// compiles: an import path alone, not a message.
func isPackageLine(l string) bool {
	return l != "" && !strings.ContainsAny(l, " \t:") && !strings.HasPrefix(l, "#")
}

// finish returns the build's output without the package lines, and says how
// long the build took when it was announced.
func (p *buildProgress) finish() []byte {
	if len(p.partial) > 0 {
		p.line(string(p.partial))
		p.partial = nil
	}
	if p.compiled >= progressAfter {
		fmt.Fprintf(p.w, "goa-discovery gen: compiled %d packages in %.1fs\n", p.compiled, time.Since(p.start).Seconds())
	}
	return p.output.Bytes()
}
