package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// An agent tool whose agent is not registered when the first run starts
// fails that run's first step, before the planner is called, the way an
// unregistered toolset does; registered later, before the run, it works.
func TestRunFailsOnUnregisteredAgentTool(t *testing.T) {
	register := map[string]func(rt *runtime.Runtime) error{
		"RegisterAgentTools": func(rt *runtime.Runtime) error {
			return rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "investigate", Agent: "researcher", Description: "Investigate a topic"})
		},
		"RegisterAgentToolset": func(rt *runtime.Runtime) error {
			return rt.RegisterAgentToolset(runtime.AgentToolset{
				Schema: tools.ToolsetSchema{Name: "experts", Tools: []tools.ToolSchema{{
					Name: "experts.investigate", Description: "Investigate a topic", Payload: json.RawMessage(investigatePayload),
				}}},
				Agents: map[tools.Ident]string{"experts.investigate": "researcher"},
			})
		},
	}
	for name, reg := range register {
		for _, list := range []string{"immediate", "deferred"} {
			t.Run(name+"/"+list, func(t *testing.T) {
				rt := runtime.New()
				if err := reg(rt); err != nil {
					t.Fatal(err)
				}
				lead := newScriptedClient(final(t, "unreached"))
				agent := runtime.AgentRegistration{Name: "lead", Planner: plannerFor(lead)}
				if list == "immediate" {
					agent.Immediate = []tools.Ident{"experts.investigate"}
				} else {
					agent.Deferred = []tools.Ident{"experts.investigate"}
				}
				if err := rt.RegisterAgent(context.Background(), agent); err != nil {
					t.Fatal(err)
				}
				_, err := rt.Client("lead").Run(context.Background(), userSays("Who owns record 7?"))
				if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, runtime.ErrUnknownAgent) ||
					!strings.Contains(err.Error(), `agent "lead" uses agent tool "experts.investigate" of agent "researcher", which is not registered`) {
					t.Fatalf("run error %v, want a catalog error naming the unregistered agent", err)
				}
				if n := len(lead.requests); n != 0 {
					t.Fatalf("the planner sent %d requests, want none", n)
				}
				researcher := runtime.AgentRegistration{Name: "researcher", Planner: plannerFor(newScriptedClient())}
				if err := rt.RegisterAgent(context.Background(), researcher); err != nil {
					t.Fatal(err)
				}
				if _, err := rt.Client("lead").Run(context.Background(), userSays("Who owns record 7?")); err != nil {
					t.Fatalf("run after registering the agent: %v", err)
				}
			})
		}
	}
}
