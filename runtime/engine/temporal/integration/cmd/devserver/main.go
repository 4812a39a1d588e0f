package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"go.temporal.io/server/common/log"

	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal/integration/internal/devserver"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var usage usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
}

// usageError is a refused command line: exit status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// options are the command's flags.
type options struct {
	addr, namespace, db, logLevel string
	allowNonLoopback              bool
}

// parse reads the flags; it refuses arguments, an address that is not
// host:port with an IP or "localhost" as host, a non-loopback address
// without --allow-non-loopback, and an unknown log level.
func parse(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("devserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:7233", "`host:port` of the frontend (gRPC); port 0 takes a free port")
	fs.StringVar(&o.namespace, "namespace", "default", "`name` of the namespace to register")
	fs.StringVar(&o.db, "db", "", "SQLite `file` holding the server's state across restarts, created if new (default: in memory, gone on exit)")
	fs.StringVar(&o.logLevel, "log-level", "none", "server log `level` on stderr: debug, info, warn, error or none (a single host logs errors while its services find each other and when they stop)")
	fs.BoolVar(&o.allowNonLoopback, "allow-non-loopback", false, "listen on an address other than loopback: the server has no authentication")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: devserver [flags]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Runs a Temporal server in process for local work: every service in this")
		fmt.Fprintln(stderr, "process, one namespace, no authentication, no web UI. Prints one line when")
		fmt.Fprintln(stderr, "ready; stops on SIGINT or SIGTERM.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.namespace == "" {
		return nil, errors.New("--namespace is empty")
	}
	switch o.logLevel {
	case "debug", "info", "warn", "error", "none":
	default:
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn, error or none", o.logLevel)
	}
	host, port, err := net.SplitHostPort(o.addr)
	if err != nil {
		return nil, fmt.Errorf("--addr %q: %w", o.addr, err)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return nil, fmt.Errorf("--addr %q: the host must be an IP address or localhost", o.addr)
	}
	if !ip.IsLoopback() && !o.allowNonLoopback {
		return nil, fmt.Errorf("--addr %q is not a loopback address and the server has no authentication; add --allow-non-loopback to listen there", o.addr)
	}
	o.addr = net.JoinHostPort(host, port)
	return o, nil
}

// run starts the server, says when it is ready and stops it on SIGINT or
// SIGTERM.
func run(args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)

	cfg := devserver.Config{Addr: o.addr, Namespaces: []string{o.namespace}, DBFile: o.db}
	if o.logLevel != "none" {
		cfg.Logger = log.NewZapLogger(log.BuildZapLogger(log.Config{Level: o.logLevel, Format: "console"}))
	}
	srv, err := devserver.Start(cfg)
	if err != nil {
		return err
	}
	state := "in memory"
	if o.db != "" {
		state = "in " + o.db
	}
	fmt.Fprintf(stdout, "temporal dev server on %s, namespace %q, state %s, no web UI\n", srv.Addr(), o.namespace, state)

	<-stop
	if err := srv.Stop(); err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	fmt.Fprintln(stdout, "temporal dev server stopped")
	return nil
}
