package main

// goa-discovery mcp import: the design file of a live server's tools.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/goa-discovery/goa-discovery/internal/mcpimport"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// runMCPImport implements "goa-discovery mcp import": it lists the
// server's tools and writes the design file that declares them (stdout, or
// -o FILE). Schemas the DSL cannot declare are printed with their tool and
// JSON Pointer, exit status 1; --any declares their properties Any.
func runMCPImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf serverFlags
	name := fs.String("name", "", "the server's `NAME` in the design (FromExternalMCP), required")
	toolset := fs.String("toolset", "", "the toolset's `NAME` (default: the server's name)")
	agent := fs.String("agent", "", "also declare a service and an agent `NAME` that use the toolset")
	deferred := fs.Bool("deferred", false, "the agent loads every tool through discovery (Use with Deferred())")
	anyFlag := fs.Bool("any", false, "declare a property whose schema the DSL cannot declare as Any instead of failing")
	pkg := fs.String("package", "design", "the Go package `NAME` of the file")
	out := fs.String("o", "", "write the design to `FILE` (default: standard output)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery mcp import --name NAME [--toolset NAME] [--agent NAME [--deferred]] [--any] [--package NAME] [-o FILE] (--url URL | --command CMD [ARGS...])")
		fs.PrintDefaults()
	}
	if code := serverFlagsExit(fs, args, &sf, "mcp import", stderr); code >= 0 {
		return code
	}
	if *name == "" || len(sf.args) > 0 {
		fs.Usage()
		return 2
	}
	t, how := sf.transport()
	list, err := listTools(t)
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp import: server %q over %s: %v\n", *name, how, err)
		return 1
	}
	res, err := mcpimport.Write(list, mcpimport.Options{
		Package: *pkg, Server: *name, Toolset: *toolset, Agent: *agent, Deferred: *deferred, Any: *anyFlag, Source: how,
	})
	var problems mcpimport.Errors
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Fprintf(stderr, "goa-discovery mcp import: %v\n", p)
		}
		fmt.Fprintln(stderr, "goa-discovery mcp import: --any declares such a property Any")
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp import: %v\n", err)
		return 1
	}
	for _, p := range res.DeclaredAny {
		fmt.Fprintf(stderr, "note: %v\n", p)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "note: %v\n", n)
	}
	if *out == "" {
		_, err = stdout.Write(res.File)
	} else {
		err = os.WriteFile(*out, res.File, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp import: %v\n", err)
		return 1
	}
	return 0
}

// listTools connects through t and returns the server's tools/list.
func listTools(t mcp.Transport) ([]mcpimport.Tool, error) {
	ctx := context.Background()
	s, err := mcp.Connect(ctx, mcpServerName, t)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	served, err := s.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	list := make([]mcpimport.Tool, len(served))
	for i, tool := range served {
		list[i] = mcpimport.Tool{Name: tool.Name, Title: tool.Title, Description: tool.Description}
		if list[i].InputSchema, err = json.Marshal(tool.InputSchema); err != nil {
			return nil, fmt.Errorf("tool %q: inputSchema: %w", tool.Name, err)
		}
		if tool.OutputSchema != nil {
			if list[i].OutputSchema, err = json.Marshal(tool.OutputSchema); err != nil {
				return nil, fmt.Errorf("tool %q: outputSchema: %w", tool.Name, err)
			}
		}
	}
	return list, nil
}
