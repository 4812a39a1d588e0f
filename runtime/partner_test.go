package runtime_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/planner"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// billingTools is a toolset whose list tool names list_more as its
// pagination partner; list_more is gated by a label when gated is true.
func billingTools(gated bool) []toolDef {
	more := toolDef{name: "list_more", description: "Fetch the next page of a payments listing"}
	if gated {
		more.contract = &tools.Contract{RequiredLabels: map[string]string{"tier": "pro"}}
	}
	return []toolDef{
		{name: "list", description: "List recent payments", contract: &tools.Contract{PaginationPartner: "billing.list_more"}},
		more,
		{name: "refund", description: "Refund a payment"},
	}
}

// TestPaginationPartnerTravelsWithItsTool checks that discovering a tool
// loads its pagination partner right after it, so that the partner can be
// called next, from a local toolset and from a registry, and that a
// partner the run may not use, or the agent does not use, is not loaded
// and its call is refused.
func TestPaginationPartnerTravelsWithItsTool(t *testing.T) {
	tests := []struct {
		name     string
		registry bool
		gated    bool
		deferred []tools.Ident // local agents only; nil means every tool
		opts     []runtime.RunOption
		found    []string
		admitted bool
		refusal  string
	}{
		{
			name:  "local partner",
			found: []string{"billing_list", "billing_list_more"}, admitted: true,
		},
		{
			name: "registry partner", registry: true,
			found: []string{"billing_list", "billing_list_more"}, admitted: true,
		},
		{
			name:  "local partner denied by run policy",
			opts:  []runtime.RunOption{runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"billing.list_more"}})},
			found: []string{"billing_list"}, refusal: "is not available in this run",
		},
		{
			name: "registry partner denied by run policy", registry: true,
			opts:  []runtime.RunOption{runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"billing.list_more"}})},
			found: []string{"billing_list"}, refusal: "is not available in this run",
		},
		{
			name: "partner outside the allow list", registry: true,
			opts:  []runtime.RunOption{runtime.WithPolicy(runtime.Policy{AllowTools: []tools.Ident{"billing.list"}})},
			found: []string{"billing_list"}, refusal: "is not available in this run",
		},
		{
			name: "partner gated by a label the run lacks", gated: true,
			found: []string{"billing_list"}, refusal: "is not available in this run",
		},
		{
			name: "partner gated by a label the run has", gated: true,
			opts:  []runtime.RunOption{runtime.WithLabels(map[string]string{"tier": "pro"})},
			found: []string{"billing_list", "billing_list_more"}, admitted: true,
		},
		{
			name: "partner the agent does not use", deferred: []tools.Ident{"billing.list", "billing.refund"},
			found: []string{"billing_list"}, refusal: "is not available in this run",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			client := newScriptedClient(
				respond(t, searchPart("d1", "", "billing_list")),
				respond(t, callPart("c1", "billing_list_more", `{"id":"page-2"}`)),
				final(t, "done"),
			)
			rt, calls := billingRuntime(t, client, tc.registry, tc.gated, tc.deferred)
			out, err := rt.Client("cashier").Run(context.Background(), userSays("list payments"), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := snapshotNames(discoveryResults(out.Messages)["d1"]); !slices.Equal(got, tc.found) {
				t.Errorf("discovery found %v, want %v", got, tc.found)
			}
			res := toolResults(out.Messages)["c1"]
			if tc.admitted {
				if res.IsError || calls() != 1 || len(out.Calls) != 1 || out.Calls[0].Tool != "billing.list_more" {
					t.Errorf("partner call: result %+v, %d executions, records %+v; want it executed", res, calls(), out.Calls)
				}
				return
			}
			if !res.IsError || !strings.Contains(res.Content, tc.refusal) || calls() != 0 || len(out.Calls) != 0 {
				t.Errorf("partner call: result %+v, %d executions; want refused with %q", res, calls(), tc.refusal)
			}
			declared := client.requestTools()[1]
			if slices.Contains(declared, "billing_list_more") {
				t.Errorf("second request declares %v, which holds the partner the run may not use", declared)
			}
		})
	}
}

// billingRuntime returns a runtime with an agent "cashier" deferring the
// billing tools, from a local toolset or a registry, and a count of the
// calls executed.
func billingRuntime(t *testing.T, client model.Client, registry, gated bool, deferred []tools.Ident) (*runtime.Runtime, func() int) {
	t.Helper()
	rt := runtime.New()
	a := runtime.AgentRegistration{Name: "cashier", Planner: planner.New(client, "test-model")}
	var calls func() int
	if registry {
		reg := newMemoryRegistry()
		reg.publish(t, toolsetSchema(t, "billing", billingTools(gated)...))
		if err := rt.RegisterRegistry("company", reg); err != nil {
			t.Fatal(err)
		}
		a.Registries = []runtime.RegistrySource{{Registry: "company", Toolset: "billing", Deferred: true}}
		calls = func() int {
			reg.mu.Lock()
			defer reg.mu.Unlock()
			return len(reg.calls)
		}
	} else {
		exec := &recordingExecutor{}
		ts := registerToolset(t, rt, "billing", exec, billingTools(gated)...)
		a.Deferred = deferred
		if a.Deferred == nil {
			for _, tool := range ts.Tools {
				a.Deferred = append(a.Deferred, tool.Name)
			}
		}
		calls = exec.count
	}
	if err := rt.RegisterAgent(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return rt, calls
}
