package main

import (
	"fmt"
	"io"
)

// runSearch is replaced by the search implementation.
func runSearch(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "goa-discovery search: not implemented")
	return 1
}
