package temporal_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// benchSteps is the planning steps of a benchmark run; each but the last
// makes one tool call.
const benchSteps = 8

func benchScript(b *testing.B, calls int) []*model.Response {
	script := make([]*model.Response, 0, benchSteps)
	for i := 1; i < benchSteps; i++ {
		parts := make([]model.Part, calls)
		for j := range parts {
			parts[j] = call(fmt.Sprintf("c%d", j), "records_lookup", `{"id":"1"}`)
		}
		script = append(script, respond(b, parts...))
	}
	return append(script, final(b, "done"))
}

// BenchmarkRun compares a run of 8 planning steps, with 1 or 4 tool calls
// in each of the first 7, on the in-memory engine and as a workflow in the
// SDK's test suite (activities and the workflow in process, no server):
// ns/step and ns/call are the run's time per planning step and per tool
// call.
func BenchmarkRun(b *testing.B) {
	for _, calls := range []int{1, 4} {
		script := benchScript(b, calls)
		per := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchSteps), "ns/step")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(benchSteps-1)*calls), "ns/call")
		}
		b.Run(fmt.Sprintf("memory/calls=%d", calls), func(b *testing.B) {
			rt := newRuntime(b, nil, &countingExecutor{}, runtime.Caps{}, script, nil, nil)
			client := rt.Client("assistant")
			b.ResetTimer()
			for range b.N {
				if _, err := client.Run(context.Background(), []model.Message{model.UserMessage("go")}); err != nil {
					b.Fatal(err)
				}
			}
			per(b)
		})
		b.Run(fmt.Sprintf("testsuite/calls=%d", calls), func(b *testing.B) {
			for range b.N {
				env := newEnv()
				engine := temporal.New(nil, temporal.Options{})
				engine.Register(env, newRuntime(b, engine, &countingExecutor{}, runtime.Caps{}, script, nil, nil))
				env.ExecuteWorkflow(temporal.RunWorkflow, &runtime.RunSpec{
					State: runtime.RunState{ID: "r1", Agent: "assistant"}, Input: []model.Message{model.UserMessage("go")}, Create: true,
				})
				var res temporal.Result
				if err := env.GetWorkflowResult(&res); err != nil || res.Error != "" {
					b.Fatal(err, res.Error)
				}
			}
			per(b)
		})
	}
}
