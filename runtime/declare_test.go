package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// strictPayload is inside the strict-capable schema contract.
const strictPayload = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`

// strictCatalog returns a catalog of one immediate tool and deferred tools
// whose snapshots ask for strict schemas, as a catalog of strict tools
// would hold them.
func strictCatalog(t *testing.T, deferred ...string) *catalog {
	t.Helper()
	c := newCatalog("strict", 1+len(deferred))
	add := func(name string, isDeferred bool) {
		schema := &tools.ToolSchema{Name: tools.Ident("ops." + name), Description: "the " + name + " tool", Payload: json.RawMessage(strictPayload)}
		ct, err := newCatalogTool(schema, isDeferred, ToolSource{Kind: SourceLocal, Toolset: "ops"})
		if err != nil {
			t.Fatal(err)
		}
		if isDeferred {
			ct.snapshot.Strict = new(true)
		}
		if err := c.add(ct); err != nil {
			t.Fatal(err)
		}
	}
	add("status", false)
	for _, name := range deferred {
		add(name, true)
	}
	return c
}

// TestDeclarationsFollowDiscovery checks that a step declares what
// discovery.Declare decides for the run's history, policy and the model's
// strict limits: discovered strict tools beyond the limit are declared
// non-strict, in order of first discovery, and a tool the step may not
// use (denied, or changed since its discovery) is withheld.
func TestDeclarationsFollowDiscovery(t *testing.T) {
	cat := strictCatalog(t, "a", "b", "c", "denied", "changed")
	snap := func(name string) model.ToolSnapshot { return cat.byName["ops_"+name].snapshot }
	stale := snap("changed")
	stale.Description = "an older description"
	history := []model.Message{
		model.UserMessage("go"),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "ops"})),
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d1", Tools: []model.ToolSnapshot{snap("b"), snap("denied"), stale}}),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Query: "ops"})),
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d2", Tools: []model.ToolSnapshot{snap("a"), snap("c"), snap("b")}}),
	}
	planner := PlannerFunc(func(context.Context, *PlanInput) (*model.Response, error) { return nil, nil })
	a, err := newAgent(AgentRegistration{Name: "ops", Planner: planner, Immediate: []tools.Ident{"ops.status"},
		Deferred: []tools.Ident{"ops.a", "ops.b", "ops.c", "ops.denied", "ops.changed"}})
	if err != nil {
		t.Fatal(err)
	}
	deny, err := Policy{DenyTools: []tools.Ident{"ops.denied"}}.compile()
	if err != nil {
		t.Fatal(err)
	}
	var d discovery.Declarer
	r := &run{agent: a, policy: newRunPolicy(nil, a.policy, deny), ledger: d.NewLedger()}
	if err := r.ledger.Append(history...); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		strict    model.StrictLimits
		strictOut []string
	}{
		{"no limit", model.StrictLimits{Supported: true}, []string{"ops_b", "ops_a", "ops_c"}},
		{"at most two strict tools", model.StrictLimits{Supported: true, MaxTools: 2}, []string{"ops_b", "ops_a"}},
		{"no strict tools", model.StrictLimits{}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&step{r: r, number: 1}).declare(cat, model.Capabilities{Strict: tc.strict})
			if err != nil {
				t.Fatal(err)
			}
			var names, strict []string
			for _, def := range got.Tools {
				names = append(names, def.Name)
				if def.Strict {
					strict = append(strict, def.Name)
				}
			}
			if want := []string{"ops_status", DiscoveryToolName, "ops_b", "ops_a", "ops_c"}; !slices.Equal(names, want) {
				t.Errorf("declared %v, want %v", names, want)
			}
			if !slices.Equal(strict, tc.strictOut) {
				t.Errorf("declared strict %v, want %v", strict, tc.strictOut)
			}
			if want := []string{"ops_denied", "ops_changed"}; !slices.Equal(got.Withheld, want) {
				t.Errorf("withheld %v, want %v", got.Withheld, want)
			}
			// A provider adapter accepts the request for the same model.
			req := &model.Request{Messages: history, Tools: got.Tools, Discovery: r.discoverySettings()}
			if err := discovery.Check(req, model.Capabilities{Discovery: model.DiscoveryEmulated, Strict: tc.strict}); err != nil {
				t.Errorf("discovery.Check: %v", err)
			}
		})
	}
}

// TestPlannerCapabilities checks which capabilities steps are declared for.
func TestPlannerCapabilities(t *testing.T) {
	plain := PlannerFunc(func(context.Context, *PlanInput) (*model.Response, error) { return nil, nil })
	if got := capabilities(plain); got != (model.Capabilities{Strict: model.StrictLimits{Supported: true}}) {
		t.Errorf("capabilities of a planner that does not say = %+v, want every strict tool accepted", got)
	}
	limited := model.Capabilities{Discovery: model.DiscoveryNative, Strict: model.StrictLimits{Supported: true, MaxTools: 3}}
	if got := capabilities(modelPlanner{plain, limited}); got != limited {
		t.Errorf("capabilities of a ModelPlanner = %+v, want %+v", got, limited)
	}
}

// modelPlanner is a ModelPlanner test double with fixed capabilities.
type modelPlanner struct {
	PlannerFunc
	caps model.Capabilities
}

func (p modelPlanner) Capabilities() model.Capabilities { return p.caps }
