package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// answeringConfirmer is a Confirmer test double: it records what it was
// shown and answers yes or no.
type answeringConfirmer struct {
	yes   bool
	shown []runtime.ConfirmationRequest
}

func (c *answeringConfirmer) Confirm(_ context.Context, req runtime.ConfirmationRequest) (bool, error) {
	c.shown = append(c.shown, req)
	return c.yes, nil
}

func TestConfirmation(t *testing.T) {
	contract := &tools.Contract{Confirmation: &tools.Confirmation{Title: "Delete record", Template: "Delete record {{ .id }}?"}}
	tests := []struct {
		name      string
		confirmer *answeringConfirmer
		wantRun   bool
		wantText  string
	}{
		{name: "confirmed", confirmer: &answeringConfirmer{yes: true}, wantRun: true},
		{name: "declined", confirmer: &answeringConfirmer{}, wantText: "The call was declined."},
		{name: "no confirmer", wantText: "needs confirmation"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var opts []runtime.Option
			if tc.confirmer != nil {
				opts = append(opts, runtime.WithConfirmer(tc.confirmer))
			}
			rt := runtime.New(opts...)
			exec := &recordingExecutor{}
			registerToolset(t, rt, "records", exec, toolDef{name: "delete", description: "Delete a record", contract: contract})
			client := newScriptedClient(respond(t, callPart("c1", "records_delete", `{"id":"r-9"}`)), final(t, "done"))
			reg := runtime.AgentRegistration{Name: "a", Immediate: []tools.Ident{"records.delete"}, Planner: plannerFor(client)}
			if err := rt.RegisterAgent(context.Background(), reg); err != nil {
				t.Fatal(err)
			}
			out, err := rt.Client("a").Run(context.Background(), userSays("delete r-9"))
			if err != nil {
				t.Fatal(err)
			}
			res := toolResults(out.Messages)["c1"]
			if ran := exec.count() == 1; ran != tc.wantRun || res.IsError == tc.wantRun || !strings.Contains(res.Content, tc.wantText) {
				t.Errorf("ran %v, result %+v; want ran %v with %q", ran, res, tc.wantRun, tc.wantText)
			}
			if tc.confirmer != nil {
				if len(tc.confirmer.shown) != 1 || tc.confirmer.shown[0].Text != "Delete record r-9?" || tc.confirmer.shown[0].Title != "Delete record" {
					t.Errorf("confirmer was shown %+v", tc.confirmer.shown)
				}
			}
		})
	}
}

func TestServerOnlyFields(t *testing.T) {
	rt := runtime.New()
	payload := `{"type":"object","properties":{"id":{"type":"string"},"tenant":{"type":"string"}},"required":["id","tenant"],"additionalProperties":false}`
	id := tools.Ident("records.get")
	ts := tools.ToolsetSchema{Name: "records", Tools: []tools.ToolSchema{{
		Name: id, Description: "Get a record", Payload: json.RawMessage(payload),
		Contract: &tools.Contract{ServerOnlyFields: []string{"tenant"}},
	}}}
	exec := &recordingExecutor{}
	spec := tools.ToolSpec{Name: id, Payload: tools.NewRawCodec(tools.MustCompileSchema([]byte(payload)))}
	if err := rt.RegisterToolset(runtime.ToolsetRegistration{Schema: ts, Specs: []tools.ToolSpec{spec}, Executor: exec}); err != nil {
		t.Fatal(err)
	}
	client := newScriptedClient(
		respond(t, callPart("c1", "records_get", `{"id":"1","tenant":"other"}`), callPart("c2", "records_get", `{"id":"2"}`)),
		final(t, "done"),
	)
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "a", Immediate: []tools.Ident{id}, Planner: plannerFor(client)}); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("a").Run(context.Background(), userSays("get"))
	if err != nil {
		t.Fatal(err)
	}
	params := string(client.requests[0].Tools[0].Parameters)
	if strings.Contains(params, "tenant") {
		t.Errorf("model sees the server-only field: %s", params)
	}
	results := toolResults(out.Messages)
	if r := results["c1"]; !r.IsError || !strings.Contains(r.Content, `"tenant" is filled by the server`) {
		t.Errorf("setting a server-only field: %+v", r)
	}
	if r := results["c2"]; r.IsError || exec.count() != 1 {
		t.Errorf("valid call: %+v, %d executions", r, exec.count())
	}
}

func TestRecordDecodesAndConfirmsFromItsDefinition(t *testing.T) {
	rec := runtime.CallRecord{
		CallID: "c1", Tool: "records.delete", Arguments: json.RawMessage(`{"id":"r-1"}`),
		Definition: tools.ToolSchema{
			Name: "records.delete", Payload: json.RawMessage(toolPayload),
			Contract: &tools.Contract{Confirmation: &tools.Confirmation{Template: "Delete {{ .id }}"}},
		},
	}
	args, err := rec.DecodeArguments()
	if err != nil || string(args) != `{"id":"r-1"}` {
		t.Fatalf("decode: %s, %v", args, err)
	}
	_, text, ok, err := rec.Confirmation()
	if err != nil || !ok || text != "Delete r-1" {
		t.Fatalf("confirmation %q, %v, %v", text, ok, err)
	}
	rec.Arguments = json.RawMessage(`{"id":1}`)
	if _, err := rec.DecodeArguments(); err == nil {
		t.Error("arguments that break the recorded schema decoded")
	}
	rec.Definition.Contract = nil
	if _, _, ok, _ := rec.Confirmation(); ok {
		t.Error("a definition without confirmation asked for one")
	}
}
