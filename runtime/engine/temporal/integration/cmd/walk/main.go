package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

const usage = `usage: walk worker|run|wait|check [flags]

The worker and the starter of the walk of docs/temporal.md.

  walk worker --ledger FILE              run a worker until SIGINT or SIGTERM
  walk run --id RUN                      run the bookkeeper, wait, print its answer
  walk wait --ledger FILE --tool TOOL    wait until a call of TOOL has started
  walk check --id RUN --ledger FILE [--killed TOOL]
                                         check the run's calls on the ledger

"walk COMMAND -h" lists the command's flags.
`

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var usageErr usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.As(err, &usageErr):
		fmt.Fprintln(os.Stderr, "walk:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "walk:", err)
		os.Exit(1)
	}
}

// usageError is a refused command line: exit status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// run runs the command of args.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{errors.New("no command")}
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet("walk "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:7233", "`host:port` of the Temporal server")
	namespace := fs.String("namespace", client.DefaultNamespace, "Temporal `namespace`")
	var ledger, id, tool, killed *string
	var reconcile, timeout *time.Duration
	switch cmd {
	case "worker":
		ledger = fs.String("ledger", "", "ledger `file` of the calls' attempts and results (required)")
		reconcile = fs.Duration("reconcile", 5*time.Second, "how long books.reconcile works")
	case "run":
		id = fs.String("id", "", "the run's `id` (required)")
	case "wait":
		ledger = fs.String("ledger", "", "ledger `file` (required)")
		tool = fs.String("tool", "", "the `tool` whose call to wait for (required)")
		timeout = fs.Duration("timeout", 2*time.Minute, "how long to wait")
	case "check":
		id = fs.String("id", "", "the run's `id` (required)")
		ledger = fs.String("ledger", "", "ledger `file` (required)")
		killed = fs.String("killed", "", "the `tool` whose call's worker was killed mid-execution: that call must have two attempts on two workers, every other call one")
	default:
		fmt.Fprint(stderr, usage)
		return usageError{fmt.Errorf("unknown command %q", cmd)}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("%s: unexpected argument %q", cmd, fs.Arg(0))}
	}
	for _, req := range []struct {
		name string
		v    *string
	}{{"ledger", ledger}, {"id", id}, {"tool", tool}} {
		if req.v != nil && *req.v == "" {
			return usageError{fmt.Errorf("%s: --%s is required", cmd, req.name)}
		}
	}

	switch cmd {
	case "wait":
		return waitStarted(&Ledger{path: *ledger}, *tool, *timeout, stdout)
	case "worker":
		return serve(*addr, *namespace, &bookExecutor{ledger: &Ledger{path: *ledger}, reconcile: *reconcile, log: prefixed(stdout)}, stdout, stderr)
	}
	c, err := dial(*addr, *namespace, stderr)
	if err != nil {
		return err
	}
	defer c.Close()
	rt, err := application(temporal.New(c, engineOptions), clientExecutor)
	if err != nil {
		return err
	}
	if cmd == "run" {
		return startRun(rt, *id, stdout)
	}
	state, err := rt.LoadRun(context.Background(), *id)
	if err != nil {
		return err
	}
	entries, err := (&Ledger{path: *ledger}).Entries()
	if err != nil {
		return err
	}
	report, err := check(state, entries, *killed)
	fmt.Fprint(stdout, report)
	return err
}

// clientExecutor is the executor of the processes that start runs and
// check them: the workers execute every call.
var clientExecutor = runtime.ToolExecutorFunc(func(context.Context, *runtime.ToolInvocation) (any, error) {
	return nil, errors.New("walk: only workers execute tools")
})

// quietLogger is an SDK logger that discards.
func quietLogger() sdklog.Logger { return sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

// dial connects to the server, waiting up to a minute for it to answer
// for the namespace: the walk starts the server and its worker together.
func dial(addr, namespace string, stderr io.Writer) (client.Client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.NewLazyClient(client.Options{HostPort: addr, Namespace: namespace, Logger: quietLogger()})
	if err != nil {
		return nil, err
	}
	for said := false; ; {
		_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
		if err == nil {
			return c, nil
		}
		if !said {
			fmt.Fprintf(stderr, "walk: waiting for the Temporal server on %s\n", addr)
			said = true
		}
		select {
		case <-ctx.Done():
			c.Close()
			return nil, fmt.Errorf("no Temporal server answers on %s for namespace %q: %w", addr, namespace, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// serve runs a worker of the walk's application until SIGINT or SIGTERM.
func serve(addr, namespace string, exec *bookExecutor, stdout, stderr io.Writer) error {
	c, err := dial(addr, namespace, stderr)
	if err != nil {
		return err
	}
	defer c.Close()
	engine := temporal.New(c, engineOptions)
	rt, err := application(engine, exec)
	if err != nil {
		return err
	}
	w := worker.New(c, taskQueue, worker.Options{})
	engine.Register(w, rt)
	if err := w.Start(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "worker %d: polling task queue %q on %s\n", os.Getpid(), taskQueue, addr)
	<-worker.InterruptCh()
	w.Stop()
	fmt.Fprintf(stdout, "worker %d: stopped\n", os.Getpid())
	return nil
}

// prefixed returns a writer of lines that start with the worker's pid.
func prefixed(w io.Writer) io.Writer { return &pidWriter{w: w} }

type pidWriter struct{ w io.Writer }

func (p *pidWriter) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(p.w, "worker %d: %s", os.Getpid(), b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// startRun runs the bookkeeper under the run id and prints its answer.
func startRun(rt *runtime.Runtime, id string, stdout io.Writer) error {
	out, err := rt.Client(agentName).Run(context.Background(), []model.Message{model.UserMessage("Reconcile the bank account and post what you find.")}, runtime.WithRunID(id))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "run %s: %s after %d steps and %d tool calls: %s\n", id, out.Stop, out.Steps, out.ToolCalls, out.Final.Text())
	return nil
}

// waitStarted returns once the ledger has an attempt at a call of tool.
func waitStarted(l *Ledger, tool string, timeout time.Duration, stdout io.Writer) error {
	deadline := time.Now().Add(timeout)
	for {
		entries, err := l.Entries()
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Kind == kindAttempt && e.Tool == tool {
				fmt.Fprintf(stdout, "%s %s attempt %d started on worker %d\n", tool, e.Call, e.Attempt, e.PID)
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no call of %s started in %v", tool, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
