package runtimeclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// TestOverloadedCallRetriesUnderItsToken runs a registry call whose
// provider is overloaded at first, through a client that retries: the
// retry keeps the call's ID and token, so the tool runs once; when the
// provider replaced its registration in between, the retry reports the
// admission conflict and the tool does not run.
func TestOverloadedCallRetriesUnderItsToken(t *testing.T) {
	cases := []struct {
		name      string
		replace   bool
		want      string
		wantError bool
		wantRuns  int64
	}{
		{"same registration", false, `{"name":"records.lookup a"}`, false, 1},
		{"replaced meanwhile", true, "admission_conflict", true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			var attempts, runs atomic.Int64
			var publish func(revision string) registry.Registration
			provider := newProviderServer(t, registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
				if attempts.Add(1) == 1 {
					if tc.replace {
						publish("r2")
					}
					return nil, registry.Errorf(registry.CodeOverloaded, "busy")
				}
				runs.Add(1)
				return json.RawMessage(`{"name":"` + string(call.Tool) + ` a"}`), nil
			}))
			publish = func(revision string) registry.Registration {
				res, err := w.client.Publish(context.Background(), &registry.PublishRequest{Toolset: lookupToolset("records"), Revision: revision, Endpoint: provider})
				if err != nil {
					t.Error(err)
					return registry.Registration{}
				}
				return res.Registration
			}
			reg := publish("r1")
			retrying, err := registry.NewClient(w.registry.URL, registry.WithBearerToken(worldToken), registry.WithCallRetries(2, time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			rt := runtime.New()
			if err := rt.RegisterRegistry("company", runtimeclient.New(retrying)); err != nil {
				t.Fatal(err)
			}
			steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{callLookup(t, "records", "a", nil)}}
			if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "reader", Description: "reader", Planner: steps,
				Registries: []runtime.RegistrySource{{Registry: "company", Toolset: "records"}}}); err != nil {
				t.Fatal(err)
			}
			out, err := rt.Client("reader").Run(context.Background(), []model.Message{model.UserMessage("go")})
			if err != nil {
				t.Fatal(err)
			}
			if res := toolResult(t, out); !strings.Contains(res.Content, tc.want) || res.IsError != tc.wantError {
				t.Fatalf("tool result %+v, want error=%v containing %q", res, tc.wantError, tc.want)
			}
			if len(out.Calls) != 1 || out.Calls[0].Source.Token != string(reg.Token) {
				t.Fatalf("call records %+v, want one bound to %s", out.Calls, reg.Token)
			}
			if n := runs.Load(); n != tc.wantRuns || attempts.Load() != 1+tc.wantRuns {
				t.Fatalf("provider ran %d of %d attempts, want %d runs", n, attempts.Load(), tc.wantRuns)
			}
		})
	}
}

// lookupToolset is the toolset world.publish publishes, at version 1.0.0.
func lookupToolset(name string) tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: name, Description: name + " records", Version: "1.0.0", Tools: []tools.ToolSchema{{
		Name:        tools.Ident(name + ".lookup"),
		Description: "Look up a " + name + " record by id",
		Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`),
		Result:      json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}}}
}
