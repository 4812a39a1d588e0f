package service_test

// The fault suite: a persisted registry in a child process (this test
// binary, run again) takes a storm of publishes, calls and reads over
// loopback and is killed with SIGKILL at a random point, several times.
// After every restart each write the registry acknowledged must be there:
// the latest acknowledged registration or withdrawal of each toolset (or
// the change in flight at the kill), every acknowledged call's result, returned again
// without running the call again, and its admission, which refuses a retry
// with another payload. A call unanswered at the kill gets its result or
// call_outcome_unknown when retried, and never runs twice. The generation
// must move past every one read before the kill.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// faultChildEnv names the data directory a child process serves, and
// faultAllowEnv the endpoint allowlist prefix it is given.
const (
	faultChildEnv = "GOA_DISCOVERY_FAULT_CHILD_DATA"
	faultAllowEnv = "GOA_DISCOVERY_FAULT_CHILD_ALLOW"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(faultChildEnv); dir != "" {
		os.Exit(serveFaultChild(dir))
	}
	os.Exit(m.Run())
}

// serveFaultChild serves a registry persisted in dir on a free loopback
// port, announced on stdout, until the process is killed.
func serveFaultChild(dir string) int {
	opts := []service.Option{service.WithInsecure(), service.WithDataDir(dir)}
	if allow := os.Getenv(faultAllowEnv); allow != "" {
		opts = append(opts, service.WithEndpointAllowlist(allow))
	}
	svc, err := service.New(opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("registry serving http://%s\n", ln.Addr())
	srv := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stderr, srv.Serve(ln))
	return 1
}

var childURL = regexp.MustCompile(`registry serving (http://\S+)`)

// registryProcess is a registry serving in a child process.
type registryProcess struct {
	url string
	cmd *exec.Cmd
}

// startRegistryProcess starts a registry persisted in dir, admitting
// endpoints under the prefix allow, in a child process and returns it once
// it serves.
func startRegistryProcess(t *testing.T, dir, allow string) *registryProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), faultChildEnv+"="+dir, faultAllowEnv+"="+allow)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := childURL.FindStringSubmatch(line)
	if err != nil || m == nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("registry process did not start: %q, %v: %s", line, err, stderr.String())
	}
	p := &registryProcess{url: m[1], cmd: cmd}
	t.Cleanup(p.kill)
	return p
}

// kill sends SIGKILL and waits for the process to end.
func (p *registryProcess) kill() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// executions counts, per call ID, how often a provider ran the call.
type executions struct {
	mu sync.Mutex
	n  map[string]int
}

func (e *executions) count(id string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n[id]
}

// faultLedger is what the storm saw acknowledged.
type faultLedger struct {
	mu sync.Mutex
	// calls: call ID to the result acknowledged, of calls of round.
	calls map[string]string
	round map[string]int
	// unanswered: the calls sent and not answered before the kill, by
	// call ID, of round.
	unanswered map[string]int
	// acked and inFlight: per toolset, the revision registered by the
	// change last acknowledged and by the one in flight at the kill ("":
	// withdrawn).
	acked, inFlight map[string]string
	maxGeneration   uint64
}

func TestKilledRegistryKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("the fault suite kills and restarts a registry process several times")
	}
	const rounds, publishers, callers = 8, 2, 12
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	dir := t.TempDir()
	execs := &executions{n: make(map[string]int)}
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		execs.mu.Lock()
		execs.n[call.CallID]++
		execs.mu.Unlock()
		return json.RawMessage(fmt.Sprintf(`{"name":"record %s"}`, call.CallID)), nil
	}), 0))
	defer provider.Close()
	ledger := &faultLedger{calls: map[string]string{}, round: map[string]int{}, unanswered: map[string]int{}, acked: map[string]string{}, inFlight: map[string]string{}}
	ctx := context.Background()

	allow := provider.URL + "/tools"
	proc := startRegistryProcess(t, dir, allow)
	client := faultClient(t, proc.url)
	res, err := client.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: allow + "/records"})
	if err != nil {
		t.Fatal(err)
	}
	token := res.Registration.Token
	for round := range rounds {
		var killed atomic.Bool
		var wg sync.WaitGroup
		for p := range publishers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stormPublishes(t, client, &killed, ledger, fmt.Sprintf("pub%d", p), round, allow)
			}()
		}
		for c := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stormCalls(t, client, &killed, ledger, token, fmt.Sprintf("r%d-c%d", round, c), round)
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			stormReads(t, client, &killed, ledger)
		}()
		// Kill at a random point once the storm has made progress.
		progress := waitForAcks(ledger, round, callers)
		if progress == nil {
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		}
		killed.Store(true)
		proc.kill()
		wg.Wait()
		if progress != nil {
			t.Fatal(progress)
		}
		if t.Failed() {
			return
		}

		proc = startRegistryProcess(t, dir, allow)
		client = faultClient(t, proc.url)
		checkAfterRestart(t, client, ledger, execs, token, round, round == rounds-1)
		checkEndpointRules(t, client, allow, round)
		if t.Failed() {
			return
		}
	}
	ledger.mu.Lock()
	defer ledger.mu.Unlock()
	t.Logf("%d calls acknowledged and found again over %d kills", len(ledger.calls), rounds)
}

// waitForAcks waits until n calls of round were acknowledged, for a
// bounded time.
func waitForAcks(ledger *faultLedger, round, n int) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		ledger.mu.Lock()
		acked := 0
		for _, r := range ledger.round {
			if r == round {
				acked++
			}
		}
		ledger.mu.Unlock()
		if acked >= n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("round %d: %d calls acknowledged in 20s, want %d", round, acked, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// faultClient is a registry client of url with a bound on every request.
func faultClient(t *testing.T, url string) *registry.Client {
	t.Helper()
	c, err := registry.NewClient(url, registry.WithHTTPClient(&http.Client{Timeout: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stormFailed reports an error of a storm request unless the registry was
// killed, which ends the storm.
func stormFailed(t *testing.T, killed *atomic.Bool, what string, err error) {
	if !killed.Load() {
		t.Errorf("%s before the kill: %v", what, err)
	}
}

// stormPublishes publishes revisions of the toolset name, withdrawing it
// every third step.
func stormPublishes(t *testing.T, client *registry.Client, killed *atomic.Bool, ledger *faultLedger, name string, round int, endpoint string) {
	var token registry.Token
	for i := 0; !killed.Load(); i++ {
		if token != "" && i%3 == 2 {
			ledger.mu.Lock()
			ledger.inFlight[name] = ""
			ledger.mu.Unlock()
			if err := client.Withdraw(context.Background(), &registry.WithdrawRequest{Toolset: name, Token: token}); err != nil {
				stormFailed(t, killed, "withdraw "+name, err)
				return
			}
			token = ""
			ledger.mu.Lock()
			ledger.acked[name] = ""
			ledger.mu.Unlock()
			continue
		}
		rev := fmt.Sprintf("%s-%d-%d", name, round, i)
		ledger.mu.Lock()
		ledger.inFlight[name] = rev
		ledger.mu.Unlock()
		// Forms of one endpoint, stored in its normalized form.
		variant := []string{endpoint + "/" + name, endpoint + "/x/../" + name, endpoint + "/./%" + fmt.Sprintf("%X", name[0]) + name[1:]}[i%3]
		res, err := client.Publish(context.Background(), &registry.PublishRequest{Toolset: namedToolset(name, fmt.Sprintf("1.%d.%d", round, i)), Revision: rev, Endpoint: variant})
		if err != nil {
			stormFailed(t, killed, "publish "+rev, err)
			return
		}
		if want := endpoint + "/" + name; res.Registration.Endpoint != want {
			t.Errorf("publish %s to %s: stored endpoint %s, want %s", rev, variant, res.Registration.Endpoint, want)
		}
		token = res.Registration.Token
		ledger.mu.Lock()
		ledger.acked[name] = rev
		ledger.mu.Unlock()
	}
}

func stormCalls(t *testing.T, client *registry.Client, killed *atomic.Bool, ledger *faultLedger, token registry.Token, prefix string, round int) {
	for i := 0; !killed.Load(); i++ {
		id := fmt.Sprintf("%s-%d", prefix, i)
		ledger.mu.Lock()
		ledger.unanswered[id] = round
		ledger.mu.Unlock()
		res, err := client.CallResolvedTool(context.Background(), lookup(id, token, id))
		if err != nil {
			stormFailed(t, killed, "call "+id, err)
			return
		}
		ledger.mu.Lock()
		delete(ledger.unanswered, id)
		ledger.calls[id] = string(res.Result)
		ledger.round[id] = round
		ledger.mu.Unlock()
	}
}

func stormReads(t *testing.T, client *registry.Client, killed *atomic.Bool, ledger *faultLedger) {
	for !killed.Load() {
		cat, err := client.ListToolsets(context.Background())
		if err != nil {
			stormFailed(t, killed, "list", err)
			return
		}
		ledger.mu.Lock()
		ledger.maxGeneration = max(ledger.maxGeneration, cat.Generation)
		ledger.mu.Unlock()
	}
}

// checkAfterRestart checks what the registry restarted after round holds
// against what the storms saw acknowledged (every call when all is set);
// see the file comment.
func checkAfterRestart(t *testing.T, client *registry.Client, ledger *faultLedger, execs *executions, token registry.Token, round int, all bool) {
	t.Helper()
	ctx := context.Background()
	ledger.mu.Lock()
	defer ledger.mu.Unlock()
	cat, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatalf("list after restart %d: %v", round, err)
	}
	if cat.Generation <= ledger.maxGeneration {
		t.Errorf("restart %d: generation %d, but %d was read before the kill", round, cat.Generation, ledger.maxGeneration)
	}
	revisions := make(map[string]string)
	for _, ts := range cat.Toolsets {
		revisions[ts.Toolset.Name] = ts.Revision
	}
	for name, acked := range ledger.acked {
		if got := revisions[name]; got != acked && got != ledger.inFlight[name] {
			t.Errorf("restart %d: toolset %s has revision %q; acknowledged %q, in flight %q", round, name, got, acked, ledger.inFlight[name])
		}
	}
	// Every call acknowledged in this round, and a sample of the earlier
	// ones (every one of them after the last round).
	for id, want := range ledger.calls {
		if ledger.round[id] != round && !all && len(id)%3 != 0 {
			continue
		}
		res, err := client.CallResolvedTool(ctx, lookup(id, token, id))
		switch {
		case err != nil:
			t.Errorf("restart %d: acknowledged call %s: %v", round, id, err)
		case string(res.Result) != want:
			t.Errorf("restart %d: acknowledged call %s answered %s, then %s", round, id, want, res.Result)
		}
		if _, err := client.CallResolvedTool(ctx, lookup(id, token, "another")); !errors.Is(err, registry.ErrAdmissionConflict) {
			t.Errorf("restart %d: acknowledged call %s retried with another payload: %v, want admission_conflict", round, id, err)
		}
		if n := execs.count(id); n != 1 {
			t.Errorf("restart %d: acknowledged call %s ran %d times", round, id, n)
		}
	}
	// A call unanswered at the kill, retried, gets its result or
	// call_outcome_unknown (it was handed to its provider, and may have
	// run), and never runs twice.
	for id, r := range ledger.unanswered {
		if r != round {
			continue
		}
		delete(ledger.unanswered, id)
		res, err := client.CallResolvedTool(ctx, lookup(id, token, id))
		switch {
		case errors.Is(err, registry.ErrCallOutcomeUnknown):
		case err != nil:
			t.Errorf("restart %d: call %s unanswered at the kill, retried: %v", round, id, err)
		case string(res.Result) != fmt.Sprintf(`{"name":"record %s"}`, id):
			t.Errorf("restart %d: call %s unanswered at the kill, retried: result %s", round, id, res.Result)
		}
		if n := execs.count(id); n > 1 {
			t.Errorf("restart %d: call %s, unanswered at the kill, ran %d times", round, id, n)
		}
	}
}

// checkEndpointRules checks, after restart round, that the stored
// endpoints are normalized and that endpoints escaping the allowlist with
// dot segments, or reaching metadata addresses, are refused.
func checkEndpointRules(t *testing.T, client *registry.Client, allow string, round int) {
	t.Helper()
	ctx := context.Background()
	cat, err := client.ListToolsets(ctx)
	if err != nil {
		t.Fatalf("list after restart %d: %v", round, err)
	}
	// A consumer does not see endpoints: publishing each registration
	// again with the normalized endpoint is unchanged only if that is the
	// endpoint stored (another is a registration_conflict).
	for _, ts := range cat.Toolsets {
		if ts.Toolset.Name == "records" {
			continue
		}
		rec := ts.Toolset
		rec.RegisteredAt = time.Time{}
		res, err := client.Publish(ctx, &registry.PublishRequest{Toolset: rec, Revision: ts.Revision, Endpoint: allow + "/" + rec.Name})
		if err != nil || res.Status != registry.Unchanged {
			t.Errorf("restart %d: toolset %s published again with its normalized endpoint: %+v, %v; want unchanged", round, rec.Name, res, err)
		}
	}
	for _, endpoint := range []string{allow + "/../v1/calls", allow + "/%2e%2e/v1/calls", "http://169.254.169.254/latest/meta-data"} {
		_, err := client.Publish(ctx, &registry.PublishRequest{Toolset: namedToolset("escape", "1.0.0"), Revision: fmt.Sprintf("escape-%d", round), Endpoint: endpoint})
		if !errors.Is(err, registry.ErrEndpointRefused) {
			t.Errorf("restart %d: publish to %s: %v, want endpoint_refused", round, endpoint, err)
		}
	}
}
