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
	"path/filepath"
	"strings"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/mcpimport"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// defaultImportTimeout bounds an import: starting the server, its
// handshake and every page of its tools/list.
const defaultImportTimeout = 2 * time.Minute

// runMCPImport implements "goa-discovery mcp import": it lists the
// server's tools and writes the design file that declares them (stdout, or
// -o FILE). Schemas the DSL cannot declare are printed with their tool and
// JSON Pointer, exit status 1; --any declares their properties Any,
// --partial leaves their tools out.
func runMCPImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf serverFlags
	name := fs.String("name", "", "the server's `NAME` in the design (FromExternalMCP), required")
	toolset := fs.String("toolset", "", "the toolset's `NAME` (default: the server's name)")
	agent := fs.String("agent", "", "also declare a service and an agent `NAME` that use the toolset")
	deferred := fs.Bool("deferred", false, "the agent loads every tool through discovery (Use with Deferred())")
	anyFlag := fs.Bool("any", false, "declare a property whose schema the DSL cannot declare as Any instead of failing")
	partial := fs.Bool("partial", false, "leave out the tools whose schemas the DSL cannot declare, listed in a comment block, instead of failing")
	skip := fs.String("skip-tools", "", "leave out the tools of these comma-separated MCP `NAMES`, listed in a comment block")
	timeout := fs.Duration("timeout", defaultImportTimeout, "the longest the import may take, a `DURATION` such as 90s: starting the server, its handshake and its tools/list")
	pkg := fs.String("package", "design", "the Go package `NAME` of the file")
	out := fs.String("o", "", "write the design to `FILE` (default: standard output)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery mcp import --name NAME [--toolset NAME] [--agent NAME [--deferred]] [--any] [--partial] [--skip-tools NAMES] [--timeout DURATION] [--package NAME] [-o FILE] (--url URL | --command CMD [ARGS...])")
		fs.PrintDefaults()
	}
	if code := serverFlagsExit(fs, args, &sf, "mcp import", stderr); code >= 0 {
		return code
	}
	if *name == "" || len(sf.args) > 0 {
		fs.Usage()
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "goa-discovery mcp import: --timeout %v is not positive\n", *timeout)
		return 2
	}
	o := mcpimport.Options{
		Package: *pkg, Server: *name, Toolset: *toolset, Agent: *agent, Deferred: *deferred, Any: *anyFlag, Partial: *partial,
	}
	if *skip != "" {
		o.Skip = strings.Split(*skip, ",")
	}
	// The options are checked before the server is started.
	if err := mcpimport.CheckOptions(&o); err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp import: %v\n", err)
		return 2
	}
	t, how := sf.transport()
	o.Source = how
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	list, err := listTools(ctx, *name, t, mcp.WithConnectTimeout(*timeout), mcp.WithCallTimeout(*timeout))
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (--timeout %v)", err, *timeout)
		}
		fmt.Fprintf(stderr, "goa-discovery mcp import: server %q over %s: %s\n", *name, how, sf.failure(err))
		return 1
	}
	res, err := mcpimport.Write(list, o)
	var problems mcpimport.Errors
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Fprintf(stderr, "goa-discovery mcp import: %v\n", p)
		}
		count := fmt.Sprintf("%d problems", len(problems))
		if len(problems) == 1 {
			count = "1 problem"
		}
		fmt.Fprintf(stderr, "goa-discovery mcp import: %s; --any declares such a property Any, --partial leaves its tool out\n", count)
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
	for _, om := range res.Omitted {
		fmt.Fprintf(stderr, "note: tool %q not imported: %s\n", om.Tool, strings.Join(om.Reasons, "; "))
	}
	if *out == "" {
		_, err = stdout.Write(res.File)
	} else if err = checkNewNames(*out, res.File); err == nil {
		err = os.WriteFile(*out, res.File, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp import: %v\n", err)
		return 1
	}
	if *out != "" {
		fmt.Fprintf(stderr, "wrote %s; generate it with goa-discovery gen (run go mod tidy first when the module does not require goa-discovery yet)\n", filepath.ToSlash(*out))
	}
	return 0
}

// listTools connects through t to the server the design names server and
// returns its tools/list.
func listTools(ctx context.Context, server string, t mcp.Transport, opts ...mcp.Option) ([]mcpimport.Tool, error) {
	s, err := mcp.Connect(ctx, server, t, opts...)
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
