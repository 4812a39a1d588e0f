package runtimeclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// paymentsToolset is a runtime-authored toolset whose tools carry consumer
// contracts: refund has search terms, a required label, a confirmation and
// a server-only field; list has a pagination partner.
func paymentsToolset(version, template string) tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: "payments", Description: "Payments", Version: version, Tools: []tools.ToolSchema{{
		Name:        "payments.refund",
		Description: "Refund a payment",
		Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"amount_cents":{"type":"integer"},"note":{"type":"string"},"tenant":{"type":"string"}},"required":["id","amount_cents","tenant"],"additionalProperties":false}`),
		Contract: &tools.Contract{
			SearchTerms:      []string{"chargeback"},
			RequiredLabels:   map[string]string{"desk": "finance"},
			Confirmation:     &tools.Confirmation{Title: "Refund", Template: template},
			ServerOnlyFields: []string{"tenant"},
		},
	}, {
		Name:        "payments.list",
		Description: "List payments of a customer",
		Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
		Contract:    &tools.Contract{PaginationPartner: "payments.list_more"},
	}, {
		Name:        "payments.list_more",
		Description: "Continue a payment listing",
		Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
	}}}
}

const refundTemplate = `Refund {{ .id }} of {{ json .amount_cents }} cents{{ with index . "note" }}: {{ . }}{{ end }}`

// recordingConfirmer is a runtime.Confirmer test double: it records the
// prompts it is shown and answers yes or no.
type recordingConfirmer struct {
	mu    sync.Mutex
	yes   bool
	shown []runtime.ConfirmationRequest
}

func (c *recordingConfirmer) Confirm(_ context.Context, req runtime.ConfirmationRequest) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shown = append(c.shown, req)
	return c.yes, nil
}

func (w *world) publishToolset(t *testing.T, ts tools.ToolsetSchema, revision string) registry.Registration {
	t.Helper()
	res, err := w.client.Publish(context.Background(), &registry.PublishRequest{Toolset: ts, Revision: revision, Endpoint: w.provider.URL})
	if err != nil {
		t.Fatal(err)
	}
	return res.Registration
}

func discover(id, query string) func(*runtime.PlanInput) []model.Part {
	return func(*runtime.PlanInput) []model.Part {
		return []model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: id, Query: query})}
	}
}

func call(id, name, args string) func(*runtime.PlanInput) []model.Part {
	return func(*runtime.PlanInput) []model.Part {
		return []model.Part{model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})}
	}
}

func found(out *runtime.RunOutput, callID string) []model.ToolSnapshot {
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.DiscoveryResult != nil && p.DiscoveryResult.CallID == callID {
				return p.DiscoveryResult.Tools
			}
		}
	}
	return nil
}

func results(out *runtime.RunOutput) map[string]model.ToolResult {
	res := make(map[string]model.ToolResult)
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				res[p.ToolResult.CallID] = *p.ToolResult
			}
		}
	}
	return res
}

// TestConsumerContractsOverHTTP runs an agent over a served registry whose
// toolset carries consumer contracts, with and without the label the
// refund tool requires.
func TestConsumerContractsOverHTTP(t *testing.T) {
	cases := []struct {
		name    string
		labels  map[string]string
		confirm bool
		// args are the arguments of the refund call r2.
		args string
		// wantFound is what the search for "chargeback" finds.
		wantFound []string
		// want maps call IDs to a part of their result.
		want      map[string]string
		wantError map[string]bool
		wantRuns  int64
		wantShown []string
	}{
		{
			name: "label missing", labels: nil, confirm: true, args: `{"id":"p1","amount_cents":250,"note":"late fee"}`,
			wantFound: nil,
			want:      map[string]string{"r1": "not available", "r2": "not available"},
			wantError: map[string]bool{"r1": true, "r2": true},
		},
		{
			name: "label set, confirmed", labels: map[string]string{"desk": "finance"}, confirm: true, args: `{"id":"p1","amount_cents":250,"note":"late fee"}`,
			wantFound: []string{"payments_refund"},
			want:      map[string]string{"r1": `"tenant" is filled by the server`, "r2": `{"name":"payments.refund p1"}`},
			wantError: map[string]bool{"r1": true},
			wantRuns:  1,
			wantShown: []string{"Refund p1 of 250 cents: late fee"},
		},
		{
			name: "label set, declined", labels: map[string]string{"desk": "finance"}, confirm: false, args: `{"id":"p1","amount_cents":250,"note":"late fee"}`,
			wantFound: []string{"payments_refund"},
			want:      map[string]string{"r1": `"tenant" is filled by the server`, "r2": "declined"},
			wantError: map[string]bool{"r1": true, "r2": true},
			wantShown: []string{"Refund p1 of 250 cents: late fee"},
		},
		{
			name: "optional field left out", labels: map[string]string{"desk": "finance"}, confirm: true, args: `{"id":"p1","amount_cents":250}`,
			wantFound: []string{"payments_refund"},
			want:      map[string]string{"r1": `"tenant" is filled by the server`, "r2": `{"name":"payments.refund p1"}`},
			wantError: map[string]bool{"r1": true},
			wantRuns:  1,
			wantShown: []string{"Refund p1 of 250 cents"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			confirmer := &recordingConfirmer{yes: tc.confirm}
			w := newWorld(t, runtime.WithConfirmer(confirmer))
			reg := w.publishToolset(t, paymentsToolset("1.0.0", refundTemplate), "p1")
			steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
				discover("d1", "chargeback"),
				call("r1", "payments_refund", `{"id":"p1","amount_cents":250,"tenant":"other"}`),
				call("r2", "payments_refund", tc.args),
			}}
			agent := w.agent(t, "cashier", steps, runtime.RegistrySource{Registry: "company", Toolset: "payments", Deferred: true})
			out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("refund p1")}, runtime.WithLabels(tc.labels))
			if err != nil {
				t.Fatal(err)
			}
			snaps := found(out, "d1")
			var names []string
			for _, s := range snaps {
				names = append(names, s.Name)
				if strings.Contains(string(s.Parameters), "tenant") {
					t.Errorf("the model sees the server-only field: %s", s.Parameters)
				}
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.wantFound) {
				t.Errorf("search for a search term found %v, want %v", names, tc.wantFound)
			}
			res := results(out)
			for id, want := range tc.want {
				if r := res[id]; !strings.Contains(r.Content, want) || r.IsError != tc.wantError[id] {
					t.Errorf("call %s: result %+v, want error=%v containing %q", id, r, tc.wantError[id], want)
				}
			}
			if n := w.executions.Load(); n != tc.wantRuns {
				t.Errorf("provider ran %d calls, want %d", n, tc.wantRuns)
			}
			var shown []string
			for _, s := range confirmer.shown {
				shown = append(shown, s.Text)
				if s.Title != "Refund" || s.Call.Source.Token != string(reg.Token) {
					t.Errorf("confirmation %+v, want title Refund bound to %s", s, reg.Token)
				}
			}
			if fmt.Sprint(shown) != fmt.Sprint(tc.wantShown) {
				t.Errorf("confirmations shown %q, want %q", shown, tc.wantShown)
			}
		})
	}
}

// TestRecordKeepsItsDefinitionPartnerAndToken checks what an accepted
// registry call saves, and that a restored run replays it from that record
// after the provider replaced its registration: the confirmation is the
// recorded one, the call carries the recorded token, and the registry
// answers with the recorded result without running the tool again.
func TestRecordKeepsItsDefinitionPartnerAndToken(t *testing.T) {
	ctx := context.Background()
	confirmer := &recordingConfirmer{yes: true}
	w := newWorld(t, runtime.WithConfirmer(confirmer))
	reg := w.publishToolset(t, paymentsToolset("1.0.0", refundTemplate), "p1")
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
		func(*runtime.PlanInput) []model.Part {
			return []model.Part{model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"payments_list", "payments_refund"}})}
		},
		call("l1", "payments_list", `{"id":"c7"}`),
		call("r1", "payments_refund", `{"id":"p1","amount_cents":250}`),
	}}
	source := runtime.RegistrySource{Registry: "company", Toolset: "payments", Deferred: true}
	agent := w.agent(t, "cashier", steps, source)
	out, err := agent.Run(ctx, []model.Message{model.UserMessage("refund p1")}, runtime.WithLabels(map[string]string{"desk": "finance"}), runtime.WithRunID("run-1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Calls) != 2 {
		t.Fatalf("%d call records, want 2", len(out.Calls))
	}
	list, refund := out.Calls[0], out.Calls[1]
	if list.Definition.Name != "payments.list" || list.Partner == nil || list.Partner.Name != "payments.list_more" || list.Source.Token != string(reg.Token) {
		t.Errorf("list record: definition %q, partner %+v, token %q; want payments.list with partner payments.list_more under %s", list.Definition.Name, list.Partner, list.Source.Token, reg.Token)
	}
	if refund.Definition.Name != "payments.refund" || refund.Partner != nil || refund.Source.Token != string(reg.Token) || refund.Source.Fingerprint != reg.Fingerprint {
		t.Errorf("refund record %+v, want payments.refund without partner under %s", refund, reg.Token)
	}
	first := results(out)["r1"]
	if first.IsError || w.executions.Load() != 2 {
		t.Fatalf("refund result %+v after %d executions", first, w.executions.Load())
	}

	// The provider replaces its registration with another confirmation.
	w.publishToolset(t, paymentsToolset("1.0.1", "Pay back {{ .id }}"), "p2")
	state, err := w.rt.LoadRun(ctx, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	encoded, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	var restored runtime.RunState
	if err := json.Unmarshal(encoded, &restored); err != nil {
		t.Fatal(err)
	}
	rt2 := runtime.New(runtime.WithConfirmer(confirmer))
	if err := rt2.RegisterRegistry("company", runtimeclient.New(w.client)); err != nil {
		t.Fatal(err)
	}
	if err := rt2.RegisterAgent(ctx, runtime.AgentRegistration{Name: "cashier", Description: "cashier", Registries: []runtime.RegistrySource{source}, Planner: steps}); err != nil {
		t.Fatal(err)
	}
	if err := rt2.ImportRun(ctx, &restored); err != nil {
		t.Fatal(err)
	}
	rec := restored.Calls[1]
	args, err := rec.DecodeArguments()
	if err != nil || string(args) != `{"id":"p1","amount_cents":250}` {
		t.Fatalf("restored record decodes to %s, %v", args, err)
	}
	again, err := rt2.Replay(ctx, "run-1", rec)
	if err != nil {
		t.Fatal(err)
	}
	if again.IsError || again.Content != first.Content {
		t.Errorf("replay after replacement = %+v, want the recorded result %q", again, first.Content)
	}
	if n := w.executions.Load(); n != 2 {
		t.Errorf("provider ran %d calls, want the 2 of the run", n)
	}
	last := confirmer.shown[len(confirmer.shown)-1]
	if last.Text != "Refund p1 of 250 cents" || last.Call.Source.Token != string(reg.Token) {
		t.Errorf("replay confirmation %q under %s, want the recorded one under %s", last.Text, last.Call.Source.Token, reg.Token)
	}
}
