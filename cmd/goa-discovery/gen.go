package main

import (
	"fmt"
	"io"
)

// runGen is replaced by the gen implementation.
func runGen(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "goa-discovery gen: not implemented")
	return 1
}
