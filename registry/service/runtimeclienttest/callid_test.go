package runtimeclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestCallIDReusedAcrossSteps has the model give its step-2 call the id of
// its step-1 call, as endpoints that number each response's calls from zero
// do. The served registry runs both: the second is a new call, neither a
// retry answered with the first call's result nor an admission conflict.
func TestCallIDReusedAcrossSteps(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	callAs := func(id string) func(*runtime.PlanInput) []model.Part {
		return func(*runtime.PlanInput) []model.Part {
			return []model.Part{model.ToolCallPart(model.ToolCall{ID: "call_0", Name: "records_lookup", Arguments: json.RawMessage(fmt.Sprintf(`{"id":%q}`, id))})}
		}
	}
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{callAs("r1"), callAs("r2")}}
	out, err := w.agent(t, "reader", steps, runtime.RegistrySource{Registry: "company", Toolset: "records"}).
		Run(context.Background(), []model.Message{model.UserMessage("go")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if r := p.ToolResult; r != nil {
				got = append(got, fmt.Sprintf("%s error=%v %s", r.CallID, r.IsError, r.Content))
			}
		}
	}
	want := []string{
		`call_0 error=false {"name":"records.lookup r1"}`,
		`call_0 error=false {"name":"records.lookup r2"}`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("results %q, want %q", got, want)
	}
	if n := w.executions.Load(); n != 2 {
		t.Fatalf("provider ran %d calls, want 2", n)
	}
}
