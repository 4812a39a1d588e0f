package main

// goa-discovery mcp: bring an MCP server's tools into a design (import) and
// check a design's declared MCP toolsets against their live servers (diff).
// Both reach the server the same way: --url URL (streamable HTTP) or
// --command CMD [ARGS...] (stdio), --command last, since the words after it
// are the server's command line.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// runMCP dispatches to "mcp import" and "mcp diff".
func runMCP(args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: goa-discovery mcp import --name NAME [flags] (--url URL | --command CMD [ARGS...])")
		fmt.Fprintln(w, "       goa-discovery mcp diff [--server NAME] DESIGN_IMPORT_PATH (--url URL | --command CMD [ARGS...])")
		fmt.Fprintln(w, "       goa-discovery mcp gateway --config FILE [--mode list|call|both] [--limit N] [--http ADDR]")
		fmt.Fprintln(w, "import writes a design file declaring an MCP server's tools from its tools/list;")
		fmt.Fprintln(w, "diff compares a design's declared MCP toolsets with the live server (exit 1 on a difference);")
		fmt.Fprintln(w, "gateway serves the servers of an mcpServers file to one MCP client through search.")
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "import":
		return runMCPImport(args[1:], stdout, stderr)
	case "diff":
		return runMCPDiff(args[1:], stdout, stderr)
	case "gateway":
		return runMCPGatewayStdio(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		usage(stderr)
		return 0
	}
	fmt.Fprintf(stderr, "goa-discovery mcp: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// serverFlags are the flags that say how to reach a server.
type serverFlags struct {
	url     string
	command []string
	// args are the arguments that are no flags, in order.
	args []string
	// stdio is the server run by transport over stdio.
	stdio *stdioServer
}

// splitCommand returns the arguments before --command and the command
// line after it (nil when there is no --command).
func splitCommand(args []string) (flags, command []string, found bool) {
	i := slices.IndexFunc(args, func(a string) bool { return a == "--command" || a == "-command" })
	if i < 0 {
		return args, nil, false
	}
	return args[:i], args[i+1:], true
}

// parseServerFlags parses args with fs, --command and what follows it
// taken out first, flags before and after the other arguments, and checks that exactly one way to the server is given.
// serverFlagsExit parses args with parseServerFlags for the command name
// and returns the exit status to stop with: 0 after -h, 2 on a usage error
// (printed to stderr), -1 to go on.
func serverFlagsExit(fs *flag.FlagSet, args []string, sf *serverFlags, name string, stderr io.Writer) int {
	err := parseServerFlags(fs, args, sf)
	switch {
	case err == nil:
		return -1
	case errors.Is(err, flag.ErrHelp):
		return 0
	case !errors.As(err, new(printedError)):
		fmt.Fprintf(stderr, "goa-discovery %s: %v\n", name, err)
	}
	return 2
}

func parseServerFlags(fs *flag.FlagSet, args []string, sf *serverFlags) error {
	fs.StringVar(&sf.url, "url", "", "the server's streamable HTTP endpoint `URL`")
	fs.Bool("command", false, "the server's command line, `CMD [ARGS...]`, run over stdio: the last flag, every word after it is the command's")
	flags, command, found := splitCommand(args)
	// Flags may follow the arguments: parse again after each one.
	for {
		if err := fs.Parse(flags); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return printedError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		sf.args = append(sf.args, fs.Arg(0))
		flags = fs.Args()[1:]
	}
	sf.command = command
	switch {
	case found && len(command) == 0:
		return errors.New("--command names no command")
	case found && sf.url != "":
		return errors.New("give --url or --command, not both")
	case !found && sf.url == "":
		return errors.New("give the server: --url URL or --command CMD [ARGS...]")
	}
	return nil
}

// printedError is a flag error the flag package has printed with the
// usage.
type printedError struct{ error }

func (e printedError) Unwrap() error { return e.error }

// transport returns the transport of the flags and how the server was
// reached, for messages (never a full command line or URL, which may hold
// paths or credentials).
func (sf *serverFlags) transport() (mcp.Transport, string) {
	if sf.url != "" {
		return mcp.HTTP(sf.url, nil), "streamable HTTP"
	}
	sf.stdio = &stdioServer{command: sf.command}
	return sf.stdio, "stdio"
}

// failure is the text of a failure to reach or list the server: the
// error, and the last lines of a stdio server's standard error.
func (sf *serverFlags) failure(err error) string {
	if sf.stdio == nil {
		return err.Error()
	}
	if tail := sf.stdio.stderr.lastLines(10); tail != "" {
		return err.Error() + "\nthe server's standard error ended with:\n" + tail
	}
	return err.Error() + " (the server wrote nothing to its standard error)"
}
