package runtime_test

import (
	"context"
	goruntime "runtime"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestStepAllocationsIndependentOfCatalog checks, without timing anything,
// that a step without a discovery call does no allocating work in
// proportion to the deferred catalog: runs of such steps allocate about the
// same bytes with 100 and with 10,000 deferred tools (a copy of the
// catalog's declarations alone would add megabytes). BenchmarkStep shows
// the time.
func TestStepAllocationsIndependentOfCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-tool catalog")
	}
	const runs = 50
	call := respond(t, callPart("c1", "core_core03", `{"id":"42"}`))
	measure := func(deferred int) uint64 {
		p := &benchPlanner{step: func(int) *model.Response { return call }, done: final(t, "done"), steps: 7}
		rt := benchRuntime(t, deferred, p)
		client := rt.Client("bench")
		if _, err := client.Run(context.Background(), userSays("warm up")); err != nil {
			t.Fatal(err)
		}
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		for range runs {
			if _, err := client.Run(context.Background(), userSays("go")); err != nil {
				t.Fatal(err)
			}
		}
		goruntime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	small, large := measure(100), measure(10000)
	if large > small+small/10 {
		t.Errorf("a run of 8 steps allocates %d bytes with 100 deferred tools and %d with 10,000", small, large)
	}
	t.Logf("bytes per run of 8 steps: %d with 100 deferred tools, %d with 10,000", small, large)
}
