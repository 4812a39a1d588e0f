package runtimeclient_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// scopedSources is a runtime.RegistryTools test double: the run label
// "scope" chooses the whole registry ("all") or the records toolset at the
// version of the label "version" ("records"); saved calls may continue on
// every source but billing.
type scopedSources struct{}

func (scopedSources) Resolve(_ context.Context, c *runtime.RegistryCatalog) error {
	labels := c.RunLabels()
	switch labels["scope"] {
	case "all":
		return c.IncludeRegistry("company", runtime.IncludeDeferred())
	case "records":
		return c.IncludeToolset("company", "records", runtime.IncludeDeferred(), runtime.IncludeVersion(labels["version"]))
	}
	return nil
}

func (scopedSources) Allows(src runtime.RegistrySource) bool { return src.Toolset != "billing" }

// TestRegistryToolsOverHTTP chooses a run's registry sources from its labels
// against a served registry; run policy still filters what they hold.
func TestRegistryToolsOverHTTP(t *testing.T) {
	cases := []struct {
		name      string
		labels    map[string]string
		policy    runtime.Policy
		wantFound []string
		wantErr   error
	}{
		{"whole registry", map[string]string{"scope": "all"}, runtime.Policy{}, []string{"billing_lookup", "records_lookup"}, nil},
		{"whole registry under policy", map[string]string{"scope": "all"}, runtime.Policy{DenyToolsets: []string{"billing"}}, []string{"records_lookup"}, nil},
		{"one toolset at its version", map[string]string{"scope": "records", "version": "1.0.0"}, runtime.Policy{}, []string{"records_lookup"}, nil},
		{"one toolset at another version", map[string]string{"scope": "records", "version": "2.0.0"}, runtime.Policy{}, nil, registry.ErrVersionMismatch},
		{"no source", nil, runtime.Policy{}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.publish(t, "records", "1.0.0", "r1")
			w.publish(t, "billing", "1.0.0", "b1")
			steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
				func(*runtime.PlanInput) []model.Part {
					return []model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"billing_lookup", "records_lookup"}})}
				},
			}}
			err := w.rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "scoped", Description: "scoped", Planner: steps}, runtime.WithRegistryTools(scopedSources{}))
			if err != nil {
				t.Fatal(err)
			}
			out, err := w.rt.Client("scoped").Run(context.Background(), []model.Message{model.UserMessage("go")}, runtime.WithLabels(tc.labels), runtime.WithPolicy(tc.policy))
			if tc.wantErr != nil {
				if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, tc.wantErr) {
					t.Fatalf("run error = %v, want runtime.ErrCatalog and %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range found(out, "d1") {
				names = append(names, s.Name)
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.wantFound) {
				t.Fatalf("found %v, want %v", names, tc.wantFound)
			}
		})
	}
}

// TestRegistryToolsAllowsSavedCalls replays calls saved under sources the
// agent's RegistryTools chose: only those it still allows run again.
func TestRegistryToolsAllowsSavedCalls(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	w.publish(t, "billing", "1.0.0", "b1")
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
		func(*runtime.PlanInput) []model.Part {
			return []model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"billing_lookup", "records_lookup"}})}
		},
		func(*runtime.PlanInput) []model.Part {
			return []model.Part{
				model.ToolCallPart(model.ToolCall{ID: "c1", Name: "records_lookup", Arguments: []byte(`{"id":"a"}`)}),
				model.ToolCallPart(model.ToolCall{ID: "c2", Name: "billing_lookup", Arguments: []byte(`{"id":"b"}`)}),
			}
		},
	}}
	if err := w.rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "scoped", Description: "scoped", Planner: steps}, runtime.WithRegistryTools(scopedSources{})); err != nil {
		t.Fatal(err)
	}
	out, err := w.rt.Client("scoped").Run(context.Background(), []model.Message{model.UserMessage("go")}, runtime.WithLabels(map[string]string{"scope": "all"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Calls) != 2 {
		t.Fatalf("%d call records, want 2", len(out.Calls))
	}
	for _, rec := range out.Calls {
		_, err := w.rt.Replay(context.Background(), out.RunID, rec)
		if refused := errors.Is(err, runtime.ErrReplayRefused); refused != (rec.Source.Toolset == "billing") {
			t.Errorf("replay of %s: %v", rec.Tool, err)
		}
	}
}
