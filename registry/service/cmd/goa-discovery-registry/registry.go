package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
)

// registryFlags are the arguments of "registry serve".
type registryFlags struct {
	addr      string
	data      string
	maxBody   int64
	retention time.Duration
	maxConns  int
	share     int
	allow     []string
	auth      registryAuthFlags
	redis     redisFlags
	name      string
	lease     time.Duration
	ops       opsFlags
}

// listFlag is a flag that may be given many times.
type listFlag struct{ values *[]string }

func (l listFlag) String() string {
	if l.values == nil {
		return ""
	}
	return strings.Join(*l.values, ",")
}

func (l listFlag) Set(v string) error {
	*l.values = append(*l.values, v)
	return nil
}

// operatorCommands are the subcommands that talk to a running registry
// (registry_cli.go).
var operatorCommands = map[string]bool{"ls": true, "show": true, "calls": true, "withdraw": true}

// shutdownGrace bounds how long a stopping registry waits for requests in
// flight.
const shutdownGrace = 10 * time.Second

// runRegistry runs "goa-discovery-registry serve --addr ADDR [--data DIR]"
// until SIGINT or SIGTERM.
func runRegistry(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) > 0 && operatorCommands[args[0]] {
		return runRegistryOperator(ctx, args[0], args[1:], stdout, stderr)
	}
	return serveRegistryCommand(ctx, args, stdout, stderr)
}

// serveRegistryCommand is runRegistry stopping when ctx ends.
func serveRegistryCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseRegistryFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery-registry: %v\n", err)
		return 2
	}
	if err := serveRegistry(ctx, f, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "goa-discovery-registry: %v\n", err)
		return 1
	}
	return 0
}

func parseRegistryFlags(args []string, stderr io.Writer) (registryFlags, error) {
	var f registryFlags
	usage := func() {
		fmt.Fprintln(stderr, "usage: goa-discovery-registry serve --addr ADDR (--credentials FILE | --credentials-env VAR | --insecure)\n"+
			"       [--tls-cert FILE --tls-key FILE [--client-ca FILE]] [--allow-endpoint URL]... [--data DIR]\n"+
			"       [--max-body BYTES] [--max-conns N] [--max-requests-per-principal N] [--call-retention DURATION]\n"+
			"       [(--redis URL | --redis-sentinel URL | --redis-cluster URL) --name NAME [--provider-lease DURATION]\n"+
			"        [--redis-max-staleness DURATION] [--redis-replicas N [--redis-replica-timeout DURATION]]]\n"+
			"       [--log-format text|json] [--log-level LEVEL] [--metrics-addr ADDR] [--otlp-endpoint URL]\n"+
			"       goa-discovery-registry ls --url URL [client flags] [--json]\n"+
			"       goa-discovery-registry show TOOLSET[@VERSION] --url URL [client flags] [--json]\n"+
			"       goa-discovery-registry calls [--pending] [--limit N] --url URL [client flags] [--json]\n"+
			"       goa-discovery-registry withdraw TOOLSET@VERSION --url URL [client flags] [--json]")
	}
	if len(args) == 0 || args[0] != "serve" {
		usage()
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			return f, flag.ErrHelp
		}
		if len(args) == 0 {
			return f, errors.New("missing subcommand: serve, ls, show, calls or withdraw")
		}
		return f, fmt.Errorf("unknown subcommand %q, want serve, ls, show, calls or withdraw", args[0])
	}
	fs := flag.NewFlagSet("registry serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.addr, "addr", "", "address to listen on, such as 127.0.0.1:8080 (port 0 picks a free port)")
	fs.StringVar(&f.data, "data", "", "directory that persists the registry; in memory only when empty")
	fs.Int64Var(&f.maxBody, "max-body", 4<<20, "largest request body accepted, in bytes")
	fs.DurationVar(&f.retention, "call-retention", 0, "forget recorded calls this long after their result (0 keeps them)")
	fs.Var(listFlag{&f.allow}, "allow-endpoint", "accept only provider endpoints under this URL prefix, which may then be on private or loopback addresses (repeatable; without it, any endpoint on a public address, and on loopback with --insecure)")
	fs.IntVar(&f.maxConns, "max-conns", service.DefaultServerLimits.MaxConns, "most connections served at once")
	fs.IntVar(&f.share, "max-requests-per-principal", 0, "most requests of one principal in flight at once (0: a quarter of --max-conns)")
	fs.StringVar(&f.auth.credentials, "credentials", "", "file of principals, credentials and scopes (mode 600); see package registry/access")
	fs.StringVar(&f.auth.credentialsEnv, "credentials-env", "", "environment variable holding the credentials, lines separated by ';'")
	fs.BoolVar(&f.auth.insecure, "insecure", false, "admit every request without credentials; only on a loopback address")
	fs.StringVar(&f.auth.tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate")
	fs.StringVar(&f.auth.tlsKey, "tls-key", "", "the PEM private key of --tls-cert")
	fs.StringVar(&f.auth.clientCA, "client-ca", "", "verify client certificates against these PEM CA certificates (mutual TLS)")
	f.redis.define(fs)
	fs.StringVar(&f.name, "name", "", "with a Redis store, the name of the registry the nodes serve")
	fs.DurationVar(&f.lease, "provider-lease", 0, "with a Redis store, providers renew their registration within this long or their tools are reported lease_expired (0: no leases)")
	fs.StringVar(&f.ops.logFormat, "log-format", "text", "format of the log on standard error: text or json")
	fs.StringVar(&f.ops.logLevel, "log-level", "info", "least level logged: debug, info, warn or error (refused requests are warn)")
	fs.StringVar(&f.ops.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics, without credentials (none when empty)")
	fs.StringVar(&f.ops.otlpEndpoint, "otlp-endpoint", "", "send request spans to this OTLP/HTTP collector URL, such as http://127.0.0.1:4318 (none when empty)")
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
	case f.maxConns <= 0:
		return f, fmt.Errorf("--max-conns must be positive, got %d", f.maxConns)
	case f.share < 0 || f.share > f.maxConns:
		return f, fmt.Errorf("--max-requests-per-principal must be between 0 and --max-conns (%d), got %d", f.maxConns, f.share)
	}
	if err := f.redis.check(fs, f.data, f.name, f.lease); err != nil {
		return f, err
	}
	if err := f.auth.check(f.addr); err != nil {
		return f, err
	}
	if err := f.ops.check(); err != nil {
		return f, err
	}
	return f, nil
}

// principalShare is the --max-requests-per-principal in effect.
func (f *registryFlags) principalShare() int {
	if f.share > 0 {
		return f.share
	}
	return max(1, f.maxConns/4)
}

// serveRegistry serves the registry until ctx ends, then stops accepting
// requests, lets those in flight finish and waits for forwarded calls to
// record their outcome.
func serveRegistry(ctx context.Context, f registryFlags, stdout, stderr io.Writer) error {
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	logger := f.ops.logger(stderr)
	opts := []service.Option{
		service.WithMaxBodyBytes(f.maxBody), service.WithCallRetention(f.retention),
		service.WithEndpointAllowlist(f.allow...), service.WithSelfAddress(ln.Addr().String()),
		service.WithLogger(logger),
		service.WithMaxRequestsPerPrincipal(f.principalShare()),
	}
	mp, metricsAddr, stopMetrics, err := f.ops.metrics(logger)
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		_ = stopMetrics(ctx)
	}()
	if mp != nil {
		opts = append(opts, service.WithMeterProvider(mp))
	}
	tp, err := f.ops.tracer(ctx)
	if err != nil {
		return err
	}
	if tp != nil {
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			defer cancel()
			_ = tp.Shutdown(ctx)
		}()
		opts = append(opts, service.WithTracerProvider(tp))
	}
	if f.data != "" {
		opts = append(opts, service.WithDataDir(f.data))
	}
	if f.redis.url() != "" {
		// go-redis logs its connection trouble process-wide; it goes to the
		// registry's log, in its format.
		redis.SetLogger(redisstore.Logger(logger))
		st, err := f.redis.open(ctx, f.name)
		if err != nil {
			return err
		}
		defer st.Close()
		if mp != nil {
			if err := st.Instrument(mp); err != nil {
				return err
			}
		}
		f.redis.warnDurability(ctx, st, logger)
		opts = append(opts, service.WithStore(st), service.WithProviderLease(f.lease))
	}
	authOpts, err := f.auth.options()
	if err != nil {
		return err
	}
	tlsConfig, err := f.auth.tlsConfig()
	if err != nil {
		return err
	}
	svc, err := service.New(append(opts, authOpts...)...)
	if err != nil {
		return err
	}
	defer svc.Close()
	limits := service.DefaultServerLimits
	limits.MaxConns = f.maxConns
	srv, err := svc.NewServer(limits)
	if err != nil {
		return err
	}
	ln = service.LimitListener(ln, limits.MaxConns)
	scheme, admits := "http", "credentials required"
	if tlsConfig != nil {
		srv.TLSConfig = tlsConfig
		ln = tls.NewListener(ln, tlsConfig)
		scheme = "https"
	}
	if f.auth.insecure {
		admits = "insecure: no credentials checked"
	}
	store := "in memory"
	if f.data != "" {
		store = "persisted to " + f.data
	}
	if f.redis.url() != "" {
		store = fmt.Sprintf("registry %q in %s", f.name, f.redis.kind())
	}
	fmt.Fprintf(stdout, "registry serving %s://%s (%s, %s)\n", scheme, ln.Addr(), store, admits)
	if metricsAddr != nil {
		fmt.Fprintf(stdout, "metrics serving http://%s/metrics\n", metricsAddr)
	}
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
