package main

// goa-discovery mcp diff: the drift check of a design's declared MCP
// toolsets. The generator program of the design writes the toolsets'
// schemas (the ones their generated Toolset() returns), and each is
// compared with the live server by mcp.Session.Differences, the
// comparison Register makes.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// declaredMCPToolset is one record of the generator program's
// --mcp-toolsets output (codegen.DeclaredMCPToolset).
type declaredMCPToolset struct {
	Server  string              `json:"server"`
	Toolset tools.ToolsetSchema `json:"toolset"`
	At      string              `json:"at"`
}

// runMCPDiff implements "goa-discovery mcp diff": exit status 0 when every
// declared toolset of the server matches it, 1 with each difference at its
// JSON Pointer when one does not, 2 when the check cannot run.
func runMCPDiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf serverFlags
	server := fs.String("server", "", "compare the toolsets of the server the design names `NAME` (default: the design's one server)")
	failUndeclared := fs.Bool("fail-undeclared", false, "exit 1 when the server lists tools that no declared toolset of it declares (listed either way)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery mcp diff [--server NAME] [--fail-undeclared] DESIGN_IMPORT_PATH (--url URL | --command CMD [ARGS...])")
		fs.PrintDefaults()
	}
	if code := serverFlagsExit(fs, args, &sf, "mcp diff", stderr); code >= 0 {
		return code
	}
	if len(sf.args) != 1 {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	all, err := declaredMCPToolsets(ctx, sf.args[0], stderr)
	if err != nil {
		if !errors.Is(err, errDesign) {
			fmt.Fprintf(stderr, "goa-discovery mcp diff: %v\n", err)
		}
		return 2
	}
	toolsets, err := serverToolsets(all, *server)
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp diff: %v\n", err)
		return 2
	}
	name := toolsets[0].Server
	t, how := sf.transport()
	s, err := mcp.Connect(ctx, name, t)
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp diff: server %q over %s: %s\n", name, how, sf.failure(err))
		return 2
	}
	defer s.Close()
	differ := false
	for _, ts := range toolsets {
		diffs, err := s.Differences(ctx, ts.Toolset)
		if err != nil {
			fmt.Fprintf(stderr, "goa-discovery mcp diff: toolset %q: %v\n", ts.Toolset.Name, err)
			return 2
		}
		for _, d := range diffs {
			fmt.Fprintf(stdout, "%s: toolset %q: %v\n", ts.At, ts.Toolset.Name, d)
		}
		if len(diffs) > 0 {
			differ = true
			continue
		}
		fmt.Fprintf(stdout, "toolset %q: %s server %q\n", ts.Toolset.Name, declaredToolsMatch(len(ts.Toolset.Tools)), name)
	}
	undeclared, err := undeclaredTools(ctx, s, toolsets)
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery mcp diff: server %q: %v\n", name, err)
		return 2
	}
	for _, tool := range undeclared {
		fmt.Fprintf(stdout, "server %q lists tool %q, which no declared toolset declares\n", name, tool)
	}
	if len(undeclared) > 0 && !*failUndeclared {
		fmt.Fprintf(stdout, "server %q lists %d tools the design does not declare (--fail-undeclared fails on them)\n", name, len(undeclared))
	}
	if differ || len(undeclared) > 0 && *failUndeclared {
		return 1
	}
	return 0
}

// undeclaredTools returns the MCP names of the tools the server lists
// that none of its declared toolsets declares, in the server's order.
func undeclaredTools(ctx context.Context, s *mcp.Session, toolsets []declaredMCPToolset) ([]string, error) {
	cat, err := s.ListCatalog(ctx, toolsets[0].Toolset.Name)
	if err != nil {
		return nil, err
	}
	declared := map[string]bool{}
	for _, ts := range toolsets {
		for _, t := range ts.Toolset.Tools {
			declared[t.Name.Tool()] = true
		}
	}
	var out []string
	for _, t := range cat.Toolset.Tools {
		if !declared[t.Name.Tool()] {
			mcpName, _ := cat.MCPName(t.Name)
			out = append(out, mcpName)
		}
	}
	return out, nil
}

// declaredMCPToolsets runs the design's generator program with
// --mcp-toolsets and decodes what it writes.
func declaredMCPToolsets(ctx context.Context, designPath string, stderr io.Writer) ([]declaredMCPToolset, error) {
	out, err := readDesignView(ctx, designPath, mcpToolsetsView, stderr)
	if err != nil {
		return nil, err
	}
	var all []declaredMCPToolset
	if err := json.Unmarshal(out, &all); err != nil {
		return nil, fmt.Errorf("read the design's MCP toolsets: %w", err)
	}
	return all, nil
}

// serverToolsets returns the toolsets of the server named server, or of
// the design's one server when server is "".
func serverToolsets(all []declaredMCPToolset, server string) ([]declaredMCPToolset, error) {
	var servers []string
	for _, ts := range all {
		if !slices.Contains(servers, ts.Server) {
			servers = append(servers, ts.Server)
		}
	}
	slices.Sort(servers)
	switch {
	case len(servers) == 0:
		return nil, errors.New("the design declares no MCP toolset with tools (FromExternalMCP with Tool)")
	case server == "" && len(servers) > 1:
		return nil, fmt.Errorf("the design declares MCP toolsets of servers %s: name one with --server", strings.Join(servers, ", "))
	case server == "":
		server = servers[0]
	case !slices.Contains(servers, server):
		return nil, fmt.Errorf("the design declares no MCP toolset of server %q; it declares toolsets of %s", server, strings.Join(servers, ", "))
	}
	var out []declaredMCPToolset
	for _, ts := range all {
		if ts.Server == server {
			out = append(out, ts)
		}
	}
	return out, nil
}

// declaredToolsMatch says that n declared tools match their server.
func declaredToolsMatch(n int) string {
	if n == 1 {
		return "its 1 declared tool matches"
	}
	return fmt.Sprintf("its %d declared tools match", n)
}
