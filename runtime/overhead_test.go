package runtime_test

import (
	"context"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestStepAllocationsIndependentOfCatalog checks, without timing anything,
// that a step without a discovery call does no allocating work in
// proportion to the deferred catalog: a run of such steps allocates the same
// with 100 and with 10,000 deferred tools. BenchmarkStep shows the time.
func TestStepAllocationsIndependentOfCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-tool catalog")
	}
	call := respond(t, callPart("c1", "core_core03", `{"id":"42"}`))
	measure := func(deferred int) float64 {
		p := &benchPlanner{step: func(int) *model.Response { return call }, done: final(t, "done"), steps: 7}
		rt := benchRuntime(t, deferred, p)
		client := rt.Client("bench")
		if _, err := client.Run(context.Background(), userSays("warm up")); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(20, func() {
			if _, err := client.Run(context.Background(), userSays("go")); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := measure(100), measure(10000)
	if small != large {
		t.Errorf("a run of 8 steps allocates %v times with 100 deferred tools and %v with 10,000", small, large)
	}
}
