package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry/service/redisstore"
)

// registryFlags are the arguments of "registry serve".
type registryFlags struct {
	addr      string
	data      string
	maxBody   int64
	retention time.Duration
	redis     string
	name      string
	lease     time.Duration
}

// shutdownGrace bounds how long a stopping registry waits for requests in
// flight.
const shutdownGrace = 10 * time.Second

// runRegistry runs "goa-discovery registry serve --addr ADDR [--data DIR]"
// until SIGINT or SIGTERM.
func runRegistry(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveRegistryCommand(ctx, args, stdout, stderr)
}

// serveRegistryCommand is runRegistry stopping when ctx ends.
func serveRegistryCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseRegistryFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery registry: %v\n", err)
		return 2
	}
	if err := serveRegistry(ctx, f, stdout); err != nil {
		fmt.Fprintf(stderr, "goa-discovery registry: %v\n", err)
		return 1
	}
	return 0
}

func parseRegistryFlags(args []string, stderr io.Writer) (registryFlags, error) {
	var f registryFlags
	usage := func() {
		fmt.Fprintln(stderr, "usage: goa-discovery registry serve --addr ADDR [--data DIR] [--max-body BYTES] [--call-retention DURATION] [--redis URL --name NAME [--provider-lease DURATION]]")
	}
	if len(args) == 0 || args[0] != "serve" {
		usage()
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			return f, flag.ErrHelp
		}
		if len(args) == 0 {
			return f, errors.New("missing subcommand: serve")
		}
		return f, fmt.Errorf("unknown subcommand %q, want serve", args[0])
	}
	fs := flag.NewFlagSet("registry serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", "", "address to listen on, such as 127.0.0.1:8080 (port 0 picks a free port)")
	fs.StringVar(&f.data, "data", "", "directory that persists the registry; in memory only when empty")
	fs.Int64Var(&f.maxBody, "max-body", 4<<20, "largest request body accepted, in bytes")
	fs.DurationVar(&f.retention, "call-retention", 0, "forget recorded calls this long after their result (0 keeps them)")
	fs.StringVar(&f.redis, "redis", "", "keep the registry in the Redis at this URL (redis://host:port/db), shared by every node given the same --name")
	fs.StringVar(&f.name, "name", "", "with --redis, the name of the registry the nodes serve")
	fs.DurationVar(&f.lease, "provider-lease", 0, "with --redis, providers renew their registration within this long or their tools are reported lease_expired (0: no leases)")
	fs.Usage = func() {
		usage()
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		return f, err
	}
	switch {
	case fs.NArg() > 0:
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	case f.addr == "":
		return f, errors.New("--addr is required")
	case f.maxBody <= 0:
		return f, fmt.Errorf("--max-body must be positive, got %d", f.maxBody)
	case f.retention < 0:
		return f, fmt.Errorf("--call-retention must not be negative, got %v", f.retention)
	case f.redis != "" && f.data != "":
		return f, errors.New("--redis and --data exclude each other")
	case (f.redis == "") != (f.name == ""):
		return f, errors.New("--redis and --name go together")
	case f.lease < 0 || (f.lease > 0 && f.redis == ""):
		return f, fmt.Errorf("--provider-lease must not be negative and needs --redis, got %v", f.lease)
	}
	return f, nil
}

// serveRegistry serves the registry until ctx ends, then stops accepting
// requests, lets those in flight finish and waits for forwarded calls to
// record their outcome.
func serveRegistry(ctx context.Context, f registryFlags, stdout io.Writer) error {
	opts := []service.Option{service.WithMaxBodyBytes(f.maxBody), service.WithCallRetention(f.retention)}
	if f.data != "" {
		opts = append(opts, service.WithDataDir(f.data))
	}
	if f.redis != "" {
		st, err := redisstore.Open(ctx, f.redis, f.name)
		if err != nil {
			return err
		}
		defer st.Close()
		opts = append(opts, service.WithStore(st), service.WithProviderLease(f.lease))
	}
	svc, err := service.New(opts...)
	if err != nil {
		return err
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second}
	store := "in memory"
	if f.data != "" {
		store = "persisted to " + f.data
	}
	if f.redis != "" {
		store = fmt.Sprintf("registry %q in Redis", f.name)
	}
	fmt.Fprintf(stdout, "registry serving http://%s (%s)\n", ln.Addr(), store)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
