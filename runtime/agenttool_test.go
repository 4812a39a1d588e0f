package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// investigatePayload is the design payload of the agent tool
// "experts.investigate".
const investigatePayload = `{"type":"object","properties":{"topic":{"type":"string","minLength":1},"depth":{"type":"integer","minimum":1}},"required":["topic"],"additionalProperties":false}`

// expertsToolset is an agent toolset whose tool has design arguments.
func expertsToolset() tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: "experts", Tools: []tools.ToolSchema{{
		Name:        "experts.investigate",
		Description: "Investigate a topic",
		Payload:     json.RawMessage(investigatePayload),
		Result:      json.RawMessage(`{"type":"string"}`),
	}}}
}

func TestAgentToolsetWithDesignArguments(t *testing.T) {
	for _, tc := range []struct {
		name  string
		specs func() []tools.ToolSpec
	}{
		{"specs compiled from the schema", func() []tools.ToolSpec { return nil }},
		{"specs given", func() []tools.ToolSpec {
			return []tools.ToolSpec{{
				Name:    "experts.investigate",
				Payload: tools.NewRawCodec(tools.MustCompileSchema([]byte(investigatePayload))),
			}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, _ := newRecordsRuntime(t, newScriptedClient(final(t, "Record 7 belongs to Ada.")),
				func(r *runtime.AgentRegistration) { r.Name = "researcher" })
			err := rt.RegisterAgentToolset(runtime.AgentToolset{
				Schema: expertsToolset(),
				Specs:  tc.specs(),
				Agents: map[tools.Ident]string{"experts.investigate": "researcher"},
			})
			if err != nil {
				t.Fatal(err)
			}
			const args = `{"topic":"owner of record 7","depth":2}`
			parent := newScriptedClient(
				respond(t, searchPart("d1", "", "experts_investigate")),
				respond(t,
					callPart("bad", "experts_investigate", `{"request":"Who owns record 7?"}`),
					callPart("good", "experts_investigate", args)),
				final(t, "Ada owns it."),
			)
			reg := runtime.AgentRegistration{Name: "lead", Deferred: []tools.Ident{"experts.investigate"}, Planner: plannerFor(parent)}
			if err := rt.RegisterAgent(context.Background(), reg); err != nil {
				t.Fatal(err)
			}
			out, err := rt.Client("lead").Run(context.Background(), userSays("Who owns record 7?"))
			if err != nil {
				t.Fatal(err)
			}
			found := discoveryResults(out.Messages)["d1"]
			if len(found.Tools) != 1 || string(found.Tools[0].Parameters) != investigatePayload {
				t.Errorf("discovered %+v, want the design payload schema", found.Tools)
			}
			results := toolResults(out.Messages)
			if bad := results["bad"]; !bad.IsError || !strings.Contains(bad.Content, "Invalid arguments") {
				t.Errorf("call with the fixed request form answered %+v, want invalid arguments", bad)
			}
			if good := results["good"]; good.IsError || good.Content != "Record 7 belongs to Ada." {
				t.Errorf("agent tool result %+v", good)
			}
			if len(out.Calls) != 1 || out.Calls[0].CallID != "good" || out.Calls[0].Source.Kind != runtime.SourceAgent {
				t.Fatalf("records %+v, want the valid call only", out.Calls)
			}
			child, err := rt.LoadRun(context.Background(), out.Calls[0].ChildRunID)
			if err != nil {
				t.Fatal(err)
			}
			if len(child.Messages) == 0 || child.Messages[0].Role != model.RoleUser || child.Messages[0].Text() != args {
				t.Errorf("child run starts with %+v, want the arguments %s", child.Messages, args)
			}
		})
	}
}

func TestRegisterAgentToolsetRefuses(t *testing.T) {
	withServerOnly := expertsToolset()
	withServerOnly.Tools[0].Contract = &tools.Contract{ServerOnlyFields: []string{"missing"}}
	for _, tc := range []struct {
		name string
		reg  runtime.AgentToolset
		want error
		text string
	}{
		{"tool without agent", runtime.AgentToolset{Schema: expertsToolset()}, runtime.ErrInvalidRegistration, `tool "experts.investigate" names no agent`},
		{"agent for another tool", runtime.AgentToolset{Schema: expertsToolset(), Agents: map[tools.Ident]string{
			"experts.investigate": "researcher", "experts.other": "researcher",
		}}, runtime.ErrInvalidRegistration, `agent tool "experts.other" is not a tool of the toolset`},
		{"record that does not compile", runtime.AgentToolset{Schema: withServerOnly, Agents: map[tools.Ident]string{
			"experts.investigate": "researcher",
		}}, runtime.ErrInvalidRegistration, `"missing"`},
		{"spec missing", runtime.AgentToolset{Schema: expertsToolset(), Specs: []tools.ToolSpec{}, Agents: map[tools.Ident]string{
			"experts.investigate": "researcher",
		}}, runtime.ErrInvalidRegistration, `tool "experts.investigate" has no spec`},
		{"toolset registered twice", runtime.AgentToolset{Schema: tools.ToolsetSchema{Name: "records"}}, runtime.ErrAlreadyRegistered, `toolset "records"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, _ := newRecordsRuntime(t, newScriptedClient(), nil)
			err := rt.RegisterAgentToolset(tc.reg)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("RegisterAgentToolset = %v, want %v containing %s", err, tc.want, tc.text)
			}
		})
	}
}
