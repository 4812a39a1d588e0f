package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// memoryRegistry is a RegistryClient test double: toolsets in memory, a
// token per registration, calls admitted only under the current token.
type memoryRegistry struct {
	mu       sync.Mutex
	toolsets map[string]runtime.ResolvedToolset
	revision int
	calls    []runtime.RegistryCall
	fail     error
}

func newMemoryRegistry() *memoryRegistry {
	return &memoryRegistry{toolsets: make(map[string]runtime.ResolvedToolset)}
}

// publish registers ts, replacing any earlier registration and its token.
func (r *memoryRegistry) publish(t testing.TB, ts tools.ToolsetSchema) string {
	t.Helper()
	fp, err := tools.ToolsetFingerprint(&ts)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.revision++
	token := fmt.Sprintf("%s#%d", fp, r.revision)
	r.toolsets[ts.Name] = runtime.ResolvedToolset{Schema: ts, Fingerprint: fp, Token: token}
	return token
}

func (r *memoryRegistry) ResolveToolset(_ context.Context, name string) (*runtime.ResolvedToolset, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return nil, r.fail
	}
	ts, ok := r.toolsets[name]
	if !ok {
		return nil, fmt.Errorf("toolset %q not found", name)
	}
	return &ts, nil
}

func (r *memoryRegistry) ListToolsets(context.Context) ([]runtime.ResolvedToolset, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return nil, r.fail
	}
	var out []runtime.ResolvedToolset
	for _, name := range []string{"billing", "crm", "ops"} {
		if ts, ok := r.toolsets[name]; ok {
			out = append(out, ts)
		}
	}
	return out, nil
}

func (r *memoryRegistry) CallTool(_ context.Context, call *runtime.RegistryCall) (json.RawMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, *call)
	if ts, ok := r.toolsets[call.Tool.Toolset()]; !ok || ts.Token != call.Token {
		return nil, errors.New("call_not_admitted")
	}
	return json.RawMessage(fmt.Sprintf(`{"tool":%q,"args":%s}`, call.Tool, call.Arguments)), nil
}

// labelRegistryTools is a RegistryTools test double: it includes the "ops"
// toolset for runs labelled team=ops.
type labelRegistryTools struct{ allow bool }

func (l labelRegistryTools) Resolve(_ context.Context, c *runtime.RegistryCatalog) error {
	labels := c.RunLabels()
	labels["team"] += "-changed" // a copy: the run's labels stay as they are
	if c.RunLabels()["team"] == "ops" {
		return c.IncludeToolset("company", "ops", runtime.IncludeDeferred())
	}
	return nil
}

func (l labelRegistryTools) Allows(runtime.RegistrySource) bool { return l.allow }

func registryRuntime(t *testing.T, reg *memoryRegistry, client *scriptedClient, sources []runtime.RegistrySource, opts ...runtime.AgentOption) *runtime.Runtime {
	t.Helper()
	rt := runtime.New()
	if err := rt.RegisterRegistry("company", reg); err != nil {
		t.Fatal(err)
	}
	a := runtime.AgentRegistration{Name: "generalist", Registries: sources, Planner: plannerFor(client)}
	if err := rt.RegisterAgent(context.Background(), a, opts...); err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestRegistryToolsBoundToToken(t *testing.T) {
	reg := newMemoryRegistry()
	token := reg.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund an invoice payment"}))
	client := newScriptedClient(
		respond(t, searchPart("d1", "refund invoice")),
		respond(t, callPart("c1", "billing_refund", `{"id":"inv-1"}`)),
		final(t, "Refunded."),
	)
	rt := registryRuntime(t, reg, client, []runtime.RegistrySource{{Registry: "company", Deferred: true}})
	out, err := rt.Client("generalist").Run(context.Background(), userSays("refund inv-1"), runtime.WithRunID("g1"))
	if err != nil {
		t.Fatal(err)
	}
	if res := toolResults(out.Messages)["c1"]; res.IsError {
		t.Fatalf("registry call failed: %+v", res)
	}
	if len(out.Calls) != 1 {
		t.Fatalf("%d records", len(out.Calls))
	}
	rec := out.Calls[0]
	if rec.Source.Kind != runtime.SourceRegistry || rec.Source.Token != token || rec.Source.Registry != "company" || rec.Definition.Name != "billing.refund" {
		t.Errorf("record %+v", rec)
	}
	if len(reg.calls) != 1 || reg.calls[0].Token != token {
		t.Errorf("forwarded calls %+v", reg.calls)
	}

	// A replay uses the recorded token: refused once the registration is
	// replaced, whatever the registry serves now.
	if res, err := rt.Replay(context.Background(), "g1", rec); err != nil || res.IsError {
		t.Fatalf("replay under the current token: %+v, %v", res, err)
	}
	changed := toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund a payment, partially or fully"})
	reg.publish(t, changed)
	res, err := rt.Replay(context.Background(), "g1", rec)
	if err != nil || !res.IsError || !strings.Contains(res.Content, "call_not_admitted") {
		t.Errorf("replay after replacement: %+v, %v; want the registry's refusal", res, err)
	}
	if last := reg.calls[len(reg.calls)-1]; last.Token != token {
		t.Errorf("replay carried token %q, want the recorded %q", last.Token, token)
	}
}

func TestRegistryChangesBetweenSteps(t *testing.T) {
	// Each step reads the registry once, before planning, and keeps that
	// catalog for the step. Published while step 1 plans, a new definition
	// is what step 2 sees: the call of the tool discovered under the old one
	// is refused and never forwarded. Published while step 2 plans, the
	// call is admitted under the old registration and forwarded with its
	// token, which the registry no longer admits.
	tests := []struct {
		publishAt int
		want      string
		forwarded bool
	}{
		{publishAt: 1, want: "changed since it was discovered"},
		{publishAt: 2, want: "call_not_admitted", forwarded: true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint("publish at step ", tc.publishAt), func(t *testing.T) {
			reg := newMemoryRegistry()
			oldToken := reg.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund an invoice payment"}))
			client := newScriptedClient(
				respond(t, searchPart("d1", "", "billing_refund")),
				respond(t, callPart("c1", "billing_refund", `{"id":"1"}`)),
				respond(t, searchPart("d2", "", "crm_note")),
				final(t, "done"),
			)
			rt := registryRuntime(t, reg, client, nil)
			planner := plannerFor(client)
			publishing := runtime.PlannerFunc(func(ctx context.Context, in *runtime.PlanInput) (*model.Response, error) {
				if in.Agent.Step() == tc.publishAt {
					reg.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund, new contract"}))
					reg.publish(t, toolsetSchema(t, "crm", toolDef{name: "note", description: "Add a note"}))
				}
				return planner.Plan(ctx, in)
			})
			if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
				Name: "watcher", Registries: []runtime.RegistrySource{{Registry: "company", Deferred: true}}, Planner: publishing,
			}); err != nil {
				t.Fatal(err)
			}
			out, err := rt.Client("watcher").Run(context.Background(), userSays("go"))
			if err != nil {
				t.Fatal(err)
			}
			if res := toolResults(out.Messages)["c1"]; !res.IsError || !strings.Contains(res.Content, tc.want) {
				t.Errorf("call result %+v, want an error containing %q", res, tc.want)
			}
			if got := snapshotNames(discoveryResults(out.Messages)["d2"]); len(got) != 1 || got[0] != "crm_note" {
				t.Errorf("step 3 found %v, want the toolset published since", got)
			}
			if forwarded := len(reg.calls) > 0; forwarded != tc.forwarded || (forwarded && reg.calls[0].Token != oldToken) {
				t.Errorf("forwarded calls %+v, want forwarded=%v with the old token", reg.calls, tc.forwarded)
			}
		})
	}
}

func TestRegistryFailures(t *testing.T) {
	tests := []struct {
		name    string
		sources []runtime.RegistrySource
		setup   func(*memoryRegistry)
		want    string
	}{
		{name: "missing named source", sources: []runtime.RegistrySource{{Registry: "company", Toolset: "crm"}}, want: `toolset "crm" not found`},
		{name: "version mismatch", sources: []runtime.RegistrySource{{Registry: "company", Toolset: "billing", Version: "2.0.0"}}, want: `current version is "1.0.0"`},
		{name: "failed read", sources: []runtime.RegistrySource{{Registry: "company"}}, setup: func(r *memoryRegistry) { r.fail = errors.New("registry down") }, want: "registry down"},
		{name: "duplicate identity", sources: []runtime.RegistrySource{{Registry: "company"}, {Registry: "company", Toolset: "billing"}}, want: `tool "billing.refund" comes from`},
		{name: "unregistered registry", sources: []runtime.RegistrySource{{Registry: "other"}}, want: `registry "other" is not registered`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := newMemoryRegistry()
			ts := toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund"})
			ts.Version = "1.0.0"
			reg.publish(t, ts)
			if tc.setup != nil {
				tc.setup(reg)
			}
			rt := registryRuntime(t, reg, newScriptedClient(final(t, "unreached")), tc.sources)
			out, err := rt.Client("generalist").Run(context.Background(), userSays("go"))
			if !errors.Is(err, runtime.ErrCatalog) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a catalog error containing %q", err, tc.want)
			}
			if out.Steps != 0 {
				t.Errorf("a failed resolution still planned %d steps", out.Steps)
			}
		})
	}
}

func TestRegistryToolsChooseSourcesFromLabels(t *testing.T) {
	reg := newMemoryRegistry()
	reg.publish(t, toolsetSchema(t, "ops", toolDef{name: "restart", description: "Restart a service"}))
	for _, tc := range []struct {
		team string
		want []string
	}{{"ops", []string{"ops_restart"}}, {"sales", []string{}}} {
		t.Run(tc.team, func(t *testing.T) {
			client := newScriptedClient(respond(t, searchPart("d1", "", "ops_restart")), final(t, "done"))
			rt := registryRuntime(t, reg, client, nil, runtime.WithRegistryTools(labelRegistryTools{}))
			out, err := rt.Client("generalist").Run(context.Background(), userSays("restart"), runtime.WithLabels(map[string]string{"team": tc.team}))
			if err != nil {
				t.Fatal(err)
			}
			if got := snapshotNames(discoveryResults(out.Messages)["d1"]); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("found %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReplayNeedsAllowedSource(t *testing.T) {
	reg := newMemoryRegistry()
	reg.publish(t, toolsetSchema(t, "ops", toolDef{name: "restart", description: "Restart a service"}))
	for _, allow := range []bool{true, false} {
		t.Run(fmt.Sprint("allow=", allow), func(t *testing.T) {
			client := newScriptedClient(
				respond(t, searchPart("d1", "", "ops_restart")),
				respond(t, callPart("c1", "ops_restart", `{"id":"api"}`)),
				final(t, "done"),
			)
			rt := registryRuntime(t, reg, client, nil, runtime.WithRegistryTools(labelRegistryTools{allow: allow}))
			out, err := rt.Client("generalist").Run(context.Background(), userSays("restart"), runtime.WithLabels(map[string]string{"team": "ops"}))
			if err != nil || len(out.Calls) != 1 {
				t.Fatalf("run: %v, %d records", err, len(out.Calls))
			}
			_, err = rt.Replay(context.Background(), out.RunID, out.Calls[0])
			if refused := errors.Is(err, runtime.ErrReplayRefused); refused == allow {
				t.Errorf("replay error %v with Allows=%v", err, allow)
			}
		})
	}
}
