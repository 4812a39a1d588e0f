package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/goa-discovery/goa-discovery/internal/benchcatalog"
	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

var kinds = map[string]func([]toolsearch.Document, int) []toolsearch.Document{
	"repeated": benchcatalog.Repeated,
	"distinct": benchcatalog.Distinct,
	"shuffled": benchcatalog.Shuffled,
	"pooled":   benchcatalog.Pooled,
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "writecatalog:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("writecatalog", flag.ContinueOnError)
	kind := fs.String("kind", "distinct", "catalog to make: repeated, distinct, shuffled or pooled")
	n := fs.Int("n", 100_000, "number of tools")
	if err := fs.Parse(args); err != nil {
		return err
	}
	build, ok := kinds[*kind]
	switch {
	case !ok:
		return fmt.Errorf("unknown -kind %q: want repeated, distinct, shuffled or pooled", *kind)
	case *n <= 0:
		return fmt.Errorf("-n %d: want a positive number of tools", *n)
	case fs.NArg() != 1:
		return errors.New("usage: writecatalog [-kind KIND] [-n N] TOOLS.jsonl")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	docs, err := catalogfile.ReadTools(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	if len(docs) == 0 {
		return fmt.Errorf("%s: no tools", fs.Arg(0))
	}
	return write(stdout, build(docs, *n))
}

// line is a tool as goa-discovery search reads it.
type line struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

func write(w io.Writer, docs []toolsearch.Document) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, d := range docs {
		if err := enc.Encode(line{Name: d.Name, Title: d.Title, Description: d.Description, Parameters: d.Parameters}); err != nil {
			return err
		}
	}
	return bw.Flush()
}
