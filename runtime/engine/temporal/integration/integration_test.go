package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

const taskQueue = "agents"

// Environment of a worker process: the server's address, the namespace
// and the file executions are logged to.
const (
	envHostPort  = "GOA_TEMPORAL_WORKER_HOSTPORT"
	envNamespace = "GOA_TEMPORAL_WORKER_NAMESPACE"
	envLog       = "GOA_TEMPORAL_WORKER_LOG"
)

// TestMain runs the test binary as a worker process when the environment
// says so.
func TestMain(m *testing.M) {
	if hp := os.Getenv(envHostPort); hp != "" {
		if err := serveWorker(hp, os.Getenv(envNamespace), os.Getenv(envLog)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// options are the engine's options in every process: a lost worker's
// tool call is retried after 3 s.
var options = temporal.Options{
	TaskQueue: taskQueue,
	Plan:      workflow.ActivityOptions{StartToCloseTimeout: 3 * time.Second, RetryPolicy: &sdktemporal.RetryPolicy{InitialInterval: 100 * time.Millisecond}},
	Call:      workflow.ActivityOptions{StartToCloseTimeout: 3 * time.Second, RetryPolicy: &sdktemporal.RetryPolicy{InitialInterval: 100 * time.Millisecond}},
}

func quiet() sdklog.Logger { return sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)) }

// serveWorker runs a worker with the application's registrations until
// the process is killed.
func serveWorker(hostPort, namespace, logPath string) error {
	c, err := client.Dial(client.Options{HostPort: hostPort, Namespace: namespace, Logger: quiet()})
	if err != nil {
		return err
	}
	engine := temporal.New(c, options)
	rt, err := application(engine, &fileExecutor{path: logPath})
	if err != nil {
		return err
	}
	w := worker.New(c, taskQueue, worker.Options{})
	engine.Register(w, rt)
	return w.Run(worker.InterruptCh())
}

// fileExecutor is a ToolExecutor test double for worker processes: it
// logs the start and the end of every execution, by call identity, to a
// file the test reads; records.slow takes two seconds, time to kill its
// worker.
type fileExecutor struct {
	path string
	mu   sync.Mutex
}

func (e *fileExecutor) log(event string, inv *runtime.ToolInvocation) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	f, err := os.OpenFile(e.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "%s %s/%d/%s %d\n", event, inv.RunID, inv.Step, inv.CallID, os.Getpid()); err != nil {
		return err
	}
	return f.Sync()
}

func (e *fileExecutor) Execute(ctx context.Context, inv *runtime.ToolInvocation) (any, error) {
	if err := e.log("start", inv); err != nil {
		return nil, err
	}
	if inv.Tool == "records.slow" {
		select {
		case <-time.After(2 * time.Second):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := e.log("done", inv); err != nil {
		return nil, err
	}
	return fmt.Sprintf("%s(%s)", inv.Tool, inv.Arguments), nil
}

// stepPlanner is a Planner test double: step n of a run answers with
// script[n-1], in any process.
func stepPlanner(script ...*model.Response) runtime.Planner {
	return runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		if n := in.Agent.Step(); n <= len(script) {
			return script[n-1], nil
		}
		return nil, fmt.Errorf("step planner: no step %d", in.Agent.Step())
	})
}

func respond(parts ...model.Part) *model.Response {
	r, err := model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{InputTokens: 10, OutputTokens: 2})
	if err != nil {
		panic(err)
	}
	return r
}

func call(id, name, args string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})
}

const payload = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`

// application registers, on a runtime recording in engine, the records
// toolset (lookup and slow), the agent "researcher" behind the agent tool
// "experts.research", and the agent "lead", which asks the researcher and
// looks a record up: the same in the test and in every worker.
func application(engine *temporal.Engine, exec runtime.ToolExecutor) (*runtime.Runtime, error) {
	rt := runtime.New(runtime.WithEngine(engine))
	schema := tools.MustCompileSchema([]byte(payload))
	reg := runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "records"}, Executor: exec}
	for _, name := range []string{"lookup", "slow"} {
		id := tools.Ident("records." + name)
		reg.Schema.Tools = append(reg.Schema.Tools, tools.ToolSchema{Name: id, Description: name, Payload: json.RawMessage(payload)})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: name, Payload: tools.NewRawCodec(schema)})
	}
	if err := rt.RegisterToolset(reg); err != nil {
		return nil, err
	}
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher", Description: "Ask the researcher"}); err != nil {
		return nil, err
	}
	researcher := stepPlanner(
		respond(call("c1", "records_lookup", `{"id":"1"}`), call("c2", "records_slow", `{"id":"2"}`)),
		respond(call("c3", "records_lookup", `{"id":"3"}`)),
		respond(model.TextPart("records 1 to 3 are fine")),
	)
	lead := stepPlanner(
		respond(call("p1", "experts_research", `{"request":"Check records 1 to 3"}`), call("p2", "records_lookup", `{"id":"9"}`)),
		respond(model.TextPart("all checked")),
	)
	for _, a := range []runtime.AgentRegistration{
		{Name: "researcher", Immediate: []tools.Ident{"records.lookup", "records.slow"}, Planner: researcher},
		{Name: "lead", Immediate: []tools.Ident{"experts.research", "records.lookup"}, Planner: lead},
	} {
		if err := rt.RegisterAgent(context.Background(), a); err != nil {
			return nil, err
		}
	}
	return rt, nil
}

// startWorker starts a worker process.
func startWorker(t *testing.T, ts *testServer, logPath string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), envHostPort+"="+ts.hostPort, envNamespace+"="+testNamespace, envLog+"="+logPath)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// executions reads the executor's log: per call identity, the processes
// that started it and those that finished it.
func executions(t *testing.T, path string) (started, done map[string][]string) {
	t.Helper()
	started, done = map[string][]string{}, map[string][]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return started, done
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			t.Fatalf("executor log line %q", sc.Text())
		}
		if fields[0] == "start" {
			started[fields[1]] = append(started[fields[1]], fields[2])
		} else {
			done[fields[1]] = append(done[fields[1]], fields[2])
		}
	}
	return started, done
}

// TestWorkerKilledMidRun runs an agent whose child agent's tool call is
// under way when its worker process is killed with SIGKILL: a second
// worker finishes the run, every tool call completes once, the killed call
// is retried with its call identity, and the child agent's run completes.
func TestWorkerKilledMidRun(t *testing.T) {
	ts := startServer(t)
	logPath := t.TempDir() + "/executions.log"
	first := startWorker(t, ts, logPath)

	engine := temporal.New(ts.client, options)
	rt, err := application(engine, runtime.ToolExecutorFunc(func(context.Context, *runtime.ToolInvocation) (any, error) {
		return nil, fmt.Errorf("the client process executes no tool")
	}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type result struct {
		out *runtime.RunOutput
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := rt.Client("lead").Run(ctx, []model.Message{model.UserMessage("check the records")}, runtime.WithRunID("run-killed"))
		done <- result{out, err}
	}()

	// Kill the first worker while the slow call runs on it.
	var slow string
	for slow == "" {
		select {
		case r := <-done:
			t.Fatalf("the run ended before the kill: %v", r.err)
		case <-ctx.Done():
			t.Fatal("the slow call never started")
		case <-time.After(50 * time.Millisecond):
		}
		started, _ := executions(t, logPath)
		for id := range started {
			if strings.HasSuffix(id, "/c2") {
				slow = id
			}
		}
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	startWorker(t, ts, logPath)

	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.out.Final.Text(); got != "all checked" {
		t.Errorf("the run ends with %q", got)
	}
	started, finished := executions(t, logPath)
	if len(finished) != 4 {
		t.Errorf("%d calls completed, want 4: %v", len(finished), finished)
	}
	for id, pids := range finished {
		if len(pids) != 1 {
			t.Errorf("call %s completed %d times (processes %v)", id, len(pids), pids)
		}
	}
	if n := len(started[slow]); n != 2 || started[slow][0] == started[slow][1] {
		t.Errorf("the killed call %s started in processes %v, want once on each worker", slow, started[slow])
	}
	if pid := fmt.Sprint(first.Process.Pid); len(finished[slow]) == 1 && finished[slow][0] == pid {
		t.Errorf("the killed call completed on the killed worker")
	}

	// The child agent's run completed, and the runs are the workflows'
	// data.
	if len(r.out.Calls) != 2 || r.out.Calls[0].ChildRunID == "" {
		t.Fatalf("the lead's calls %+v, want the agent call and the lookup", r.out.Calls)
	}
	child, err := rt.LoadRun(ctx, r.out.Calls[0].ChildRunID)
	if err != nil {
		t.Fatal(err)
	}
	if child.Status != runtime.RunStopped || child.Stop != runtime.StopCompleted || child.ToolCalls != 3 || child.ParentID != "run-killed" {
		t.Errorf("child run %s: status %q stop %q after %d tool calls, parent %q", child.ID, child.Status, child.Stop, child.ToolCalls, child.ParentID)
	}

	// Events per planning step in the workflows' histories.
	for _, id := range []string{"run-killed", child.ID} {
		h := history(t, ts.client, id)
		s, err := rt.LoadRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("run %s: %d history events for %d planning steps and %d tool calls: %.1f events per step",
			id, len(h.Events), s.Steps, s.ToolCalls, float64(len(h.Events))/float64(s.Steps))
	}

	// An exported history gives the run back, for ImportRun.
	state, err := temporal.RunStateFromHistory(history(t, ts.client, "run-killed"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if state.Stop != runtime.StopCompleted || len(state.Messages) != len(r.out.Messages) {
		t.Errorf("run from history: stop %q, %d messages; want completed, %d", state.Stop, len(state.Messages), len(r.out.Messages))
	}
}
