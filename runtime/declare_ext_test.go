package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// corruptingEngine is an Engine test double: a MemoryEngine whose resumed
// runs come back with the parameters of every discovered snapshot broken,
// as a damaged store would return them.
type corruptingEngine struct {
	*runtime.MemoryEngine
}

func (e corruptingEngine) ResumeRun(ctx context.Context, id string) (*runtime.RunState, error) {
	s, err := e.MemoryEngine.ResumeRun(ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range s.Messages {
		for _, p := range s.Messages[i].Parts {
			if p.DiscoveryResult == nil {
				continue
			}
			tools := make([]model.ToolSnapshot, len(p.DiscoveryResult.Tools))
			for k, snap := range p.DiscoveryResult.Tools {
				snap.Parameters = json.RawMessage(`{"type":"string"}`)
				tools[k] = snap
			}
			p.DiscoveryResult.Tools = tools
		}
	}
	return s, nil
}

// TestContinueRefusesADamagedHistory checks that a recorded history whose
// discovered snapshots no request may declare fails the invocation before
// any step, naming the broken rule, and leaves the run failed, not active.
func TestContinueRefusesADamagedHistory(t *testing.T) {
	client := newScriptedClient(respond(t, searchPart("d1", "", "records_analyze")), final(t, "Found it."))
	engine := corruptingEngine{runtime.NewMemoryEngine()}
	rt := runtime.New(runtime.WithEngine(engine))
	registerToolset(t, rt, "records", &recordingExecutor{}, recordsTools...)
	reg := runtime.AgentRegistration{
		Name:      "assistant",
		Immediate: []tools.Ident{"records.lookup"},
		Deferred:  []tools.Ident{"records.search", "records.analyze"},
		Planner:   plannerFor(client),
	}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	c := rt.Client("assistant")
	if _, err := c.Run(context.Background(), userSays("find analysis"), runtime.WithRunID("r1")); err != nil {
		t.Fatal(err)
	}
	_, err := c.Continue(context.Background(), "r1", userSays("go on"))
	var verr *model.ValidationError
	if !errors.As(err, &verr) || verr.Rule != discovery.RuleParameters || verr.Message != 2 {
		t.Fatalf("Continue error = %v, want the parameters rule at message 2", err)
	}
	state, err := rt.LoadRun(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	if state.Status != runtime.RunFailed || state.Steps != 2 || len(state.Messages) != 4 {
		t.Errorf("run recorded as %s after %d steps with %d messages, want failed after 2 with 4", state.Status, state.Steps, len(state.Messages))
	}
	if len(client.requests) != 2 {
		t.Errorf("the damaged history reached the model: %d requests", len(client.requests))
	}
}
