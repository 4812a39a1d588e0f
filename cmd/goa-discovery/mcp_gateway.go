package main

// goa-discovery mcp gateway: one MCP server for a host, in front of the
// servers of an mcpServers configuration file, serving them through search
// (runtime/mcp/gateway). Over stdio (the default) a host starts it as one
// of its servers; with --http it listens on a loopback address and prints
// its endpoint's URL on stdout.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatewayFlags are the flags of mcp gateway.
type gatewayFlags struct {
	config string
	mode   string
	http   string
	limit  int
}

// runMCPGateway implements "goa-discovery mcp gateway": exit status 0 when
// the client ends the session (stdio) or on SIGINT or SIGTERM, 1 when
// serving fails, 2 on a usage or configuration error.
func runMCPGateway(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveMCPGateway(ctx, args, stdin, stdout, stderr)
}

// serveMCPGateway is runMCPGateway until ctx ends.
func serveMCPGateway(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f gatewayFlags
	fs.StringVar(&f.config, "config", "", "the mcpServers configuration `FILE` (JSON), required")
	fs.StringVar(&f.mode, "mode", string(gateway.ModeList), "how found tools are reached: `list` (they join tools/list), call (through call_tool; tools/list never changes) or both")
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP at http://`ADDR`/mcp, a loopback HOST:PORT (port 0: any free port), instead of stdio; the URL is printed on stdout")
	fs.IntVar(&f.limit, "limit", 5, "return at most `N` tools from one search")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery mcp gateway --config FILE [--mode list|call|both] [--limit N] [--http ADDR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "goa-discovery mcp gateway: "+format+"\n", a...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q", fs.Arg(0))
	case f.config == "":
		return usageErr("give the configuration: --config FILE")
	case f.limit < 1:
		return usageErr("--limit %d: want at least 1", f.limit)
	}
	if f.http != "" {
		if err := checkLoopback(f.http); err != nil {
			return usageErr("--http: %v", err)
		}
	}
	data, err := os.ReadFile(f.config)
	if err != nil {
		return usageErr("%v", err)
	}
	cfg, err := gateway.ParseConfig(data)
	if err != nil {
		return usageErr("%s: %v", f.config, err)
	}
	ups, err := cfg.Upstreams(nil)
	if err != nil {
		return usageErr("%s: %v", f.config, err)
	}
	g, err := gateway.New(ups, gateway.Options{
		Mode:        gateway.Mode(f.mode),
		SearchLimit: f.limit,
		Logger:      slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return usageErr("%v", err)
	}
	defer g.Close()
	if f.http == "" {
		err = g.NewServer().Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	} else {
		err = serveGatewayHTTP(ctx, g, f.http, stdout)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "goa-discovery mcp gateway: %v\n", err)
		return 1
	}
	return 0
}

// serveGatewayHTTP serves the gateway at http://addr/mcp until ctx ends.
func serveGatewayHTTP(ctx context.Context, g *gateway.Gateway, addr string, stdout io.Writer) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", g.Handler(nil))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "http://%s/mcp\n", l.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}

// checkLoopback refuses an address whose host is not localhost or a
// loopback IP address: the gateway runs its configuration's commands for
// whoever reaches it.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not a loopback address", addr)
	}
	return nil
}

// nopWriteCloser lets the session write to stdout without closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// runMCPGatewayStdio is runMCPGateway on this process's standard input.
func runMCPGatewayStdio(args []string, stdout, stderr io.Writer) int {
	return runMCPGateway(args, os.Stdin, stdout, stderr)
}
