package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: it parses its own flags from args and returns the
// process exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order the usage text shows them.
var commands = []struct {
	name string
	command
}{
	{"gen", command{"validate a design and generate its packages", runGen}},
	{"search", command{"rank a tool catalog for a query, or evaluate search on a query set", runSearch}},
	{"registry", command{"the tool registry's server and operator commands: the goa-discovery-registry command", runRegistry}},
	{"report", command{"report how stored runs discovered and called tools", runReport}},
	{"mcp", command{"import an MCP server's tools into a design, or diff a design with its servers", runMCP}},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to the subcommand named by args[0].
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "goa-discovery: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: goa-discovery <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}
