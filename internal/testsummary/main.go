package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

// event is one record of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

func main() {
	if err := summarize(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
}

// summarize copies the run's human output from r to w and ends it with the
// line of skipped real components, if any.
func summarize(r io.Reader, w io.Writer) error {
	type key struct{ pkg, test string }
	buffered := map[key]*strings.Builder{}
	skipped := map[string]*absence{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			// go test prints some errors (a package that does not build
			// at all, a bad flag) as plain text.
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Action == "output" && e.Test == "":
			if out := strings.TrimSpace(e.Output); out != "PASS" && out != "FAIL" && !strings.HasPrefix(out, "=== ") {
				fmt.Fprint(w, e.Output)
			}
		case e.Action == "output":
			b := buffered[k]
			if b == nil {
				b = &strings.Builder{}
				buffered[k] = b
			}
			b.WriteString(e.Output)
		case e.Action == "fail" && e.Test != "":
			if b := buffered[k]; b != nil {
				fmt.Fprint(w, b.String())
			}
			delete(buffered, k)
		case e.Action == "skip" && e.Test != "":
			if b := buffered[k]; b != nil {
				if component, why, ok := realdeps.Parse(b.String()); ok {
					a := skipped[component]
					if a == nil {
						a = &absence{why: why, packages: map[string]bool{}}
						skipped[component] = a
					}
					a.tests++
					a.packages[e.Package] = true
				}
			}
			delete(buffered, k)
		case e.Action == "pass" && e.Test != "":
			delete(buffered, k)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if line := skipLine(skipped); line != "" {
		fmt.Fprintln(w, line)
	}
	return nil
}

// absence is what one absent component cost a run.
type absence struct {
	why      string
	tests    int
	packages map[string]bool
}

// skipLine is the one line that names every absent component, or "" when
// none was.
func skipLine(skipped map[string]*absence) string {
	if len(skipped) == 0 {
		return ""
	}
	var names []string
	for name := range skipped {
		names = append(names, name)
	}
	slices.Sort(names)
	var parts []string
	for _, name := range names {
		a := skipped[name]
		parts = append(parts, fmt.Sprintf("%s (%s): %d %s in %d %s", name, a.why, a.tests, plural(a.tests, "test"), len(a.packages), plural(len(a.packages), "package")))
	}
	return "SKIPPED, real components absent: " + strings.Join(parts, "; ") + ". scripts/test-deps installs them."
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
