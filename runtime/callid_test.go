package runtime_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestCallIDReusedInALaterStep runs a model that numbers the calls of each
// response from zero, so step 2 reuses step 1's call id. The second call is
// a new call: it runs with its own arguments, a registry call carries its
// step, and the history stays valid.
func TestCallIDReusedInALaterStep(t *testing.T) {
	tests := []struct {
		name string
		tool string
		// setup returns the runtime, the agent and a func describing the
		// executed calls.
		setup func(t *testing.T, client *scriptedClient) (*runtime.Runtime, string, func() []string)
		want  []string
	}{
		{name: "local tool", tool: "records_lookup", setup: func(t *testing.T, client *scriptedClient) (*runtime.Runtime, string, func() []string) {
			rt, exec := newRecordsRuntime(t, client, nil)
			return rt, "assistant", func() []string {
				exec.mu.Lock()
				defer exec.mu.Unlock()
				var got []string
				for _, c := range exec.calls {
					got = append(got, fmt.Sprintf("%s %s", c.CallID, c.Arguments))
				}
				return got
			}
		}, want: []string{`call_0 {"id":"first"}`, `call_0 {"id":"second"}`}},
		{name: "registry tool", tool: "billing_refund", setup: func(t *testing.T, client *scriptedClient) (*runtime.Runtime, string, func() []string) {
			reg := newMemoryRegistry()
			reg.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund an invoice payment"}))
			rt := registryRuntime(t, reg, client, []runtime.RegistrySource{{Registry: "company", Toolset: "billing"}})
			return rt, "generalist", func() []string {
				reg.mu.Lock()
				defer reg.mu.Unlock()
				var got []string
				for _, c := range reg.calls {
					got = append(got, fmt.Sprintf("%s step %d %s", c.CallID, c.Step, c.Arguments))
				}
				return got
			}
		}, want: []string{`call_0 step 1 {"id":"first"}`, `call_0 step 2 {"id":"second"}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			client := newScriptedClient(
				respond(t, callPart("call_0", tc.tool, `{"id":"first"}`)),
				respond(t, callPart("call_0", tc.tool, `{"id":"second"}`)),
				final(t, "done"),
			)
			rt, agent, executed := tc.setup(t, client)
			out, err := rt.Client(agent).Run(context.Background(), userSays("go"))
			if err != nil {
				t.Fatal(err)
			}
			var results []model.ToolResult
			for _, m := range out.Messages {
				for _, p := range m.Parts {
					if p.ToolResult != nil {
						results = append(results, *p.ToolResult)
					}
				}
			}
			if len(results) != 2 {
				t.Fatalf("got %d tool results, want 2: %+v", len(results), results)
			}
			for i, want := range []string{"first", "second"} {
				if r := results[i]; r.IsError || r.CallID != "call_0" || !strings.Contains(r.Content, want) {
					t.Errorf("result %d = %+v, want a result of call_0 with %q", i+1, r, want)
				}
			}
			if got := executed(); !slices.Equal(got, tc.want) {
				t.Errorf("executed calls %q, want %q", got, tc.want)
			}
			if err := discovery.ValidateHistory(out.Messages); err != nil {
				t.Errorf("history with a reused call id: %v", err)
			}
		})
	}
}
