package runtimeclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
)

// world is a registry served on loopback, a provider endpoint that answers
// every call with the tool and the id it got, and a runtime connected to
// the registry as "company".
type world struct {
	registry   *httptest.Server
	client     *registry.Client
	provider   *httptest.Server
	executions atomic.Int64
	rt         *runtime.Runtime
	// intercept, when set, sees every request to the registry first and
	// reports whether it answered it itself.
	intercept atomic.Pointer[func(http.ResponseWriter, *http.Request) bool]
}

// worldToken is the bearer token of the world's one principal, which may
// publish any toolset, consume and call.
const worldToken = "world-0123456789abcdef0123456789abcdef"

func newWorld(t *testing.T, opts ...runtime.Option) *world {
	t.Helper()
	w := &world{}
	creds, err := access.Parse(strings.NewReader("world token:" + worldToken + " publish:* consume call"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	h := svc.Handler()
	w.registry = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if f := w.intercept.Load(); f != nil && (*f)(rw, r) {
			return
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(func() { w.registry.Close(); _ = svc.Close() })
	w.provider = httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		w.executions.Add(1)
		var args struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(call.Payload, &args); err != nil {
			return nil, err
		}
		return json.RawMessage(fmt.Sprintf(`{"name":"%s %s"}`, call.Tool, args.ID)), nil
	}), 0))
	t.Cleanup(w.provider.Close)
	w.client, err = registry.NewClient(w.registry.URL, registry.WithBearerToken(worldToken))
	if err != nil {
		t.Fatal(err)
	}
	w.rt = runtime.New(opts...)
	if err := w.rt.RegisterRegistry("company", runtimeclient.New(w.client)); err != nil {
		t.Fatal(err)
	}
	return w
}

// newProviderServer serves exec as a provider endpoint on loopback and
// returns its URL.
func newProviderServer(t *testing.T, exec registry.Executor) string {
	t.Helper()
	srv := httptest.NewServer(registry.ProviderHandler(exec, 0))
	t.Cleanup(srv.Close)
	return srv.URL
}

// publish publishes a toolset with a lookup tool at version under revision.
func (w *world) publish(t *testing.T, name, version, revision string) registry.Registration {
	t.Helper()
	ts := lookupToolset(name)
	ts.Version = version
	res, err := w.client.Publish(context.Background(), &registry.PublishRequest{Toolset: ts, Revision: revision, Endpoint: w.provider.URL})
	if err != nil {
		t.Fatal(err)
	}
	return res.Registration
}

// scriptedSteps is a planner test double: step i runs steps[i-1], which
// returns the assistant's parts; after the last step it finishes. It
// records the tool names each step advertised.
type scriptedSteps struct {
	mu         sync.Mutex
	steps      []func(in *runtime.PlanInput) []model.Part
	advertised [][]string
}

func (s *scriptedSteps) Plan(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, d := range in.Agent.AdvertisedToolDefinitions() {
		names = append(names, d.Name)
	}
	s.advertised = append(s.advertised, names)
	parts := []model.Part{model.TextPart("done")}
	if i := in.Agent.Step() - 1; i < len(s.steps) {
		parts = s.steps[i](in)
	}
	return model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{})
}

// callLookup returns a step that calls the advertised lookup tool of
// toolset with the given id.
func callLookup(t *testing.T, toolset, id string, before func()) func(in *runtime.PlanInput) []model.Part {
	return func(in *runtime.PlanInput) []model.Part {
		if before != nil {
			before()
		}
		for _, d := range in.Agent.AdvertisedToolDefinitions() {
			if strings.Contains(d.Name, toolset) && strings.Contains(d.Name, "lookup") {
				return []model.Part{model.ToolCallPart(model.ToolCall{ID: "call-" + id, Name: d.Name, Arguments: json.RawMessage(fmt.Sprintf(`{"id":%q}`, id))})}
			}
		}
		t.Errorf("step %d: no %s lookup tool advertised", in.Agent.Step(), toolset)
		return []model.Part{model.TextPart("no tool")}
	}
}

func (w *world) agent(t *testing.T, name string, planner runtime.Planner, sources ...runtime.RegistrySource) *runtime.AgentClient {
	t.Helper()
	err := w.rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: name, Description: name, Registries: sources, Planner: planner})
	if err != nil {
		t.Fatal(err)
	}
	return w.rt.Client(name)
}

func toolResult(t *testing.T, out *runtime.RunOutput) model.ToolResult {
	t.Helper()
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				return *p.ToolResult
			}
		}
	}
	t.Fatal("run has no tool result")
	return model.ToolResult{}
}

func TestRunCallsARegistryTool(t *testing.T) {
	w := newWorld(t)
	reg := w.publish(t, "records", "1.0.0", "r1")
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{callLookup(t, "records", "r7", nil)}}
	agent := w.agent(t, "reader", steps, runtime.RegistrySource{Registry: "company", Toolset: "records", Version: "1.0.0"})
	out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("find r7")})
	if err != nil {
		t.Fatal(err)
	}
	if res := toolResult(t, out); res.Content != `{"name":"records.lookup r7"}` || res.IsError {
		t.Fatalf("tool result = %+v", res)
	}
	if len(out.Calls) != 1 || out.Calls[0].Source.Token != string(reg.Token) || out.Calls[0].Source.Fingerprint != reg.Fingerprint {
		t.Fatalf("call records = %+v, want one bound to token %s", out.Calls, reg.Token)
	}
	if n := w.executions.Load(); n != 1 {
		t.Fatalf("provider ran %d calls", n)
	}
}

func TestProvidersRegisteredBetweenSteps(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
		callLookup(t, "records", "a", func() { w.publish(t, "billing", "1.0.0", "b1") }),
		callLookup(t, "billing", "b", nil),
	}}
	agent := w.agent(t, "generalist", steps, runtime.RegistrySource{Registry: "company"})
	var reads atomic.Int64
	count := func(_ http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == registry.PathToolsets && r.Method == http.MethodGet {
			reads.Add(1)
		}
		return false
	}
	w.intercept.Store(&count)
	out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("look around")})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps.advertised) != 3 {
		t.Fatalf("%d steps planned, want 3", len(steps.advertised))
	}
	// Each step reads the registry once, however many calls it admits.
	if n := reads.Load(); n != 3 {
		t.Fatalf("3 steps read the registry %d times", n)
	}
	if strings.Contains(strings.Join(steps.advertised[0], " "), "billing") {
		t.Fatalf("step 1 advertised %v before billing was registered", steps.advertised[0])
	}
	if !strings.Contains(strings.Join(steps.advertised[1], " "), "billing") {
		t.Fatalf("step 2 advertised %v, want the billing tool registered in between", steps.advertised[1])
	}
	if len(out.Calls) != 2 || out.Calls[1].Tool != "billing.lookup" {
		t.Fatalf("calls = %+v", out.Calls)
	}
}

func TestEmptyWholeRegistryIsValid(t *testing.T) {
	w := newWorld(t)
	steps := &scriptedSteps{}
	agent := w.agent(t, "generalist", steps, runtime.RegistrySource{Registry: "company"})
	if _, err := agent.Run(context.Background(), []model.Message{model.UserMessage("hi")}); err != nil {
		t.Fatalf("run over an empty registry: %v", err)
	}
}

func TestStepFailsExplicitly(t *testing.T) {
	cases := []struct {
		name    string
		source  runtime.RegistrySource
		prepare func(t *testing.T, w *world) func()
		want    error
	}{
		{"missing toolset", runtime.RegistrySource{Registry: "company", Toolset: "billing"}, nil, registry.ErrToolsetNotFound},
		// The pin travels to the registry, which refuses it with its own
		// error; the runtime does not merely compare versions itself.
		{"version mismatch", runtime.RegistrySource{Registry: "company", Toolset: "records", Version: "2.0.0"}, nil, registry.ErrVersionMismatch},
		{"registry disappears mid-run", runtime.RegistrySource{Registry: "company", Toolset: "records"}, func(t *testing.T, w *world) func() {
			return func() { w.registry.CloseClientConnections(); w.registry.Close() }
		}, registry.ErrUnreachable},
		{"toolset withdrawn mid-run", runtime.RegistrySource{Registry: "company", Toolset: "records"}, func(t *testing.T, w *world) func() {
			return func() {
				cat, err := w.client.ListToolsets(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				if err := w.client.Withdraw(context.Background(), &registry.WithdrawRequest{Toolset: "records", Token: cat.Toolsets[0].Token}); err != nil {
					t.Error(err)
				}
			}
		}, registry.ErrToolsetNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.publish(t, "records", "1.0.0", "r1")
			var between func()
			if tc.prepare != nil {
				between = tc.prepare(t, w)
			}
			steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{callLookup(t, "records", "a", between)}}
			agent := w.agent(t, "reader", steps, tc.source)
			_, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")})
			if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, tc.want) {
				t.Fatalf("run error = %v, want runtime.ErrCatalog and %v", err, tc.want)
			}
		})
	}
}

func TestCallStaysBoundToItsToken(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	// The provider replaces its registration after the step read the
	// catalog and before the call reaches the registry.
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
		callLookup(t, "records", "a", func() { w.publish(t, "records", "1.0.0", "r2") }),
	}}
	agent := w.agent(t, "reader", steps, runtime.RegistrySource{Registry: "company", Toolset: "records"})
	out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	res := toolResult(t, out)
	if !strings.Contains(res.Content, "call_not_admitted") {
		t.Fatalf("tool result %+v, want the call refused as call_not_admitted", res)
	}
	if n := w.executions.Load(); n != 0 {
		t.Fatalf("provider ran %d calls under a replaced token", n)
	}
}

func TestCallID(t *testing.T) {
	long := strings.Repeat("x", 200)
	cases := []struct {
		run  string
		step int
		call string
		want string
	}{
		{"run1", 1, "call_1", "4:run1/1/call_1"},
		{"run1", 12, "call_1", "4:run1/12/call_1"},
		{"a/b", 3, "c", "3:a/b/3/c"},
		{"a", 3, "b/c", "1:a/3/b/c"},
	}
	for _, tc := range cases {
		if got := runtimeclient.CallID(tc.run, tc.step, tc.call); got != tc.want {
			t.Errorf("CallID(%q, %d, %q) = %q, want %q", tc.run, tc.step, tc.call, got, tc.want)
		}
	}
	hashed := runtimeclient.CallID(long, 1, "c")
	if !strings.HasPrefix(hashed, "h:") || len(hashed) != 66 || hashed == runtimeclient.CallID(long, 1, "d") || hashed == runtimeclient.CallID(long, 2, "c") {
		t.Fatalf("CallID of a long run id = %q", hashed)
	}
	if h := runtimeclient.CallID("run 1", 1, "c"); !strings.HasPrefix(h, "h:") {
		t.Fatalf("CallID with a space = %q, want a digest", h)
	}
	req := registry.CallRequest{CallID: hashed, Tool: "a.b", Token: registry.NewToken("sha256:x", "r"), Payload: json.RawMessage(`{}`)}
	if err := req.Validate(); err != nil {
		t.Fatalf("derived call id is not valid: %v", err)
	}
}

func TestConcurrentRunsShareARegistry(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	const runs = 8
	agents := make([]*runtime.AgentClient, runs)
	for i := range agents {
		lookup := callLookup(t, "records", fmt.Sprintf("id%d", i), nil)
		sameID := func(in *runtime.PlanInput) []model.Part {
			parts := lookup(in)
			if parts[0].ToolCall != nil {
				parts[0].ToolCall.ID = "call_1"
			}
			return parts
		}
		steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{sameID}}
		agents[i] = w.agent(t, fmt.Sprintf("reader%d", i), steps, runtime.RegistrySource{Registry: "company", Toolset: "records"})
	}
	var wg sync.WaitGroup
	results := make([]string, runs)
	errs := make([]error, runs)
	for i, agent := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Every run uses the same model call ID; the registry keeps
			// their admissions apart by run.
			out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")}, runtime.WithRunID(fmt.Sprintf("run-%d", i)))
			errs[i] = err
			if err == nil {
				for _, m := range out.Messages {
					for _, p := range m.Parts {
						if p.ToolResult != nil {
							results[i] = p.ToolResult.Content
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		if want := fmt.Sprintf(`{"name":"records.lookup id%d"}`, i); results[i] != want {
			t.Fatalf("run %d result %q, want %q", i, results[i], want)
		}
	}
	if n := w.executions.Load(); n != runs {
		t.Fatalf("provider ran %d calls, want %d", n, runs)
	}
}

// TestNewHTTPCredentials: the runtime client built with NewHTTP presents
// the credentials it is given, and without them the registry refuses it.
func TestNewHTTPCredentials(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	for _, tc := range []struct {
		opts []registry.ClientOption
		want error
	}{
		{[]registry.ClientOption{registry.WithBearerToken(worldToken)}, nil},
		{nil, registry.ErrUnauthenticated},
	} {
		c, err := runtimeclient.NewHTTP(w.registry.URL, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListToolsets(context.Background())
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Fatalf("list: %v, want %v", err, tc.want)
		}
	}
	if _, err := runtimeclient.NewHTTP("not a url"); err == nil {
		t.Fatal("NewHTTP accepted a bad URL")
	}
}
