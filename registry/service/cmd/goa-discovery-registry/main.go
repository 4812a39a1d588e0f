package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the subcommand named by args[0]: serve, or one of the operator
// commands (ls, show, calls, withdraw).
func run(args []string, stdout, stderr io.Writer) int {
	return runRegistry(args, stdout, stderr)
}
