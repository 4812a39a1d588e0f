package runtime_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// benchWords make up the descriptions of generated catalog tools.
var benchWords = []string{"customer", "invoice", "order", "ticket", "report", "account", "payment", "shipment",
	"refund", "contract", "employee", "device", "alert", "metric", "dashboard", "schedule", "inventory", "supplier"}

var benchVerbs = []string{"create", "update", "list", "archive", "summarize", "export", "approve", "notify"}

// benchRuntime registers 10 immediate tools and deferred deferred tools
// and an agent "bench" planned by p.
func benchRuntime(b testing.TB, deferred int, p runtime.Planner) *runtime.Runtime {
	b.Helper()
	rt := runtime.New()
	exec := runtime.ToolExecutorFunc(func(context.Context, *runtime.ToolInvocation) (any, error) { return "ok", nil })
	var immediate []toolDef
	var immediateIDs []tools.Ident
	for i := range 10 {
		immediate = append(immediate, toolDef{name: fmt.Sprintf("core%02d", i), description: "Core tool " + benchWords[i]})
		immediateIDs = append(immediateIDs, tools.Ident(fmt.Sprintf("core.core%02d", i)))
	}
	registerToolset(b, rt, "core", exec, immediate...)
	var defs []toolDef
	var deferredIDs []tools.Ident
	for i := range deferred {
		w1, w2, v := benchWords[i%len(benchWords)], benchWords[(i/len(benchWords))%len(benchWords)], benchVerbs[i%len(benchVerbs)]
		defs = append(defs, toolDef{name: fmt.Sprintf("t%05d", i), description: fmt.Sprintf("%s the %s of a %s, variant %d", v, w1, w2, i)})
		deferredIDs = append(deferredIDs, tools.Ident(fmt.Sprintf("catalog.t%05d", i)))
	}
	registerToolset(b, rt, "catalog", exec, defs...)
	reg := runtime.AgentRegistration{
		Name:      "bench",
		Immediate: immediateIDs,
		Deferred:  deferredIDs,
		Planner:   p,
		Caps:      runtime.Caps{MaxSteps: 1 << 30, MaxToolCalls: 1 << 30, MaxDuration: 1 << 62},
	}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		b.Fatal(err)
	}
	return rt
}

// benchPlanner is a Planner test double: it reads the step's declarations,
// as any planner does, and returns the next prepared response; after steps
// responses it finishes.
type benchPlanner struct {
	step     func(n int) *model.Response
	steps    int
	done     *model.Response
	declared int
}

func (p *benchPlanner) Plan(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
	p.declared = len(in.Agent.AdvertisedToolDefinitions())
	if in.Agent.Step() > p.steps {
		return p.done, nil
	}
	return p.step(in.Agent.Step()), nil
}

// stepsPerRun is the planning steps of each benchmark run: runsPerRun-1
// steps with calls, then a final answer.
const stepsPerRun = 16

// BenchmarkStep measures the runtime's own work per planning step, the
// model excluded: resolve the catalog, build the declarations, validate the
// planner's response, admit and execute the calls, record the step. One op
// is one step; runs of stepsPerRun steps follow each other, so starting and
// recording runs is included. The "call" steps make one immediate tool call
// and no discovery call: their cost must not grow with the deferred
// catalog. The "discover" steps add a discovery query against it, which
// finds the same tools every step; the "discover-new" steps each find a
// tool by name that no earlier step of the run found, so every step
// declares one more tool.
func BenchmarkStep(b *testing.B) {
	call := callPart("c1", "core_core03", `{"id":"42"}`)
	callResp := respond(b, call)
	discoverResp := respond(b, searchPart("d1", "summarize invoice dashboard"), call)
	discoverNew := make([]*model.Response, stepsPerRun+1)
	for n := range discoverNew {
		discoverNew[n] = respond(b, searchPart("d1", "", fmt.Sprintf("catalog_t%05d", n)), call)
	}
	for _, kind := range []struct {
		name string
		resp func(step int) *model.Response
	}{
		{"call", func(int) *model.Response { return callResp }},
		{"discover", func(int) *model.Response { return discoverResp }},
		{"discover-new", func(step int) *model.Response { return discoverNew[step] }},
	} {
		for _, deferred := range []int{100, 1000, 10000} {
			b.Run(fmt.Sprintf("%s/deferred=%d", kind.name, deferred), func(b *testing.B) {
				p := &benchPlanner{step: kind.resp, done: final(b, "done"), steps: stepsPerRun - 1}
				rt := benchRuntime(b, deferred, p)
				client := rt.Client("bench")
				// A warm-up run builds the catalog (and, for discovery, its
				// index) once, as the first run after registration does.
				if _, err := client.Run(context.Background(), userSays("warm up")); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				cpu := startCPU(b)
				b.ResetTimer()
				for done := 0; done < b.N; {
					p.steps = min(stepsPerRun, b.N-done) - 1
					out, err := client.Run(context.Background(), userSays("go"))
					if err != nil {
						b.Fatal(err)
					}
					if out.Steps != p.steps+1 || p.declared < 11 {
						b.Fatalf("%d steps declaring %d tools, want %d declaring at least 11", out.Steps, p.declared, p.steps+1)
					}
					done += out.Steps
				}
				cpu.stop(b, b.N)
			})
		}
	}
}

// BenchmarkRegistryStep measures a step of an agent whose deferred tools
// come from a whole registry of 1,000 tools: the registry is read once per
// step (here from an in-memory double), and the catalog built for what it
// served is reused while the registrations stay the same.
func BenchmarkRegistryStep(b *testing.B) {
	reg := newMemoryRegistry()
	for _, name := range []string{"billing", "crm", "ops"} {
		var defs []toolDef
		for i := range 333 {
			defs = append(defs, toolDef{name: fmt.Sprintf("t%03d", i), description: fmt.Sprintf("%s %s tool %d", benchVerbs[i%len(benchVerbs)], benchWords[i%len(benchWords)], i)})
		}
		reg.publish(b, toolsetSchema(b, name, defs...))
	}
	call := respond(b, callPart("c1", "core_core03", `{"id":"42"}`))
	p := &benchPlanner{step: func(int) *model.Response { return call }, done: final(b, "done"), steps: stepsPerRun - 1}
	rt := benchRuntime(b, 0, p)
	if err := rt.RegisterRegistry("company", reg); err != nil {
		b.Fatal(err)
	}
	agent := runtime.AgentRegistration{
		Name: "reader", Immediate: []tools.Ident{"core.core03"}, Planner: p,
		Registries: []runtime.RegistrySource{{Registry: "company", Deferred: true}},
		Caps:       runtime.Caps{MaxSteps: 1 << 30, MaxToolCalls: 1 << 30, MaxDuration: 1 << 62},
	}
	if err := rt.RegisterAgent(context.Background(), agent); err != nil {
		b.Fatal(err)
	}
	client := rt.Client("reader")
	if _, err := client.Run(context.Background(), userSays("warm up")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		p.steps = min(stepsPerRun, b.N-done) - 1
		out, err := client.Run(context.Background(), userSays("go"))
		if err != nil {
			b.Fatal(err)
		}
		done += out.Steps
	}
}

// BenchmarkFirstDiscoveryUnderNewPolicy measures the first discovery call
// of runs whose policies no run had before, over 10,000 deferred tools. One
// op is a run of that step and a final answer. When each policy leaves out
// other tools, each run builds a permitted catalog: the one cost that
// grows with the catalog. When the policies differ but leave out the same
// tools, runs share one and pay only a pass over the catalog's policy
// checks.
func BenchmarkFirstDiscoveryUnderNewPolicy(b *testing.B) {
	discover := respond(b, searchPart("d1", "summarize invoice dashboard"))
	for _, tc := range []struct {
		name string
		deny func(i int) tools.Ident
	}{
		{"other tools left out", func(i int) tools.Ident { return tools.Ident(fmt.Sprintf("catalog.t%05d", i%10000)) }},
		{"same tools left out", func(i int) tools.Ident { return tools.Ident(fmt.Sprintf("elsewhere.t%d", i)) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p := &benchPlanner{step: func(int) *model.Response { return discover }, done: final(b, "done"), steps: 1}
			rt := benchRuntime(b, 10000, p)
			client := rt.Client("bench")
			if _, err := client.Run(context.Background(), userSays("warm up")); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := startCPU(b)
			b.ResetTimer()
			for i := range b.N {
				deny := runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{tc.deny(i)}})
				if _, err := client.Run(context.Background(), userSays("go"), deny); err != nil {
					b.Fatal(err)
				}
			}
			cpu.stop(b, b.N)
		})
	}
}

// cpuMeter reports, beside a benchmark's wall time, the process CPU time
// per operation (cpu-ns/op), which other load on the machine does not
// inflate. Start it after the setup, before resetting the timer: it first
// collects the setup's garbage. Stop it after the loop.
type cpuMeter struct {
	start time.Duration
	ok    bool
}

func startCPU(b *testing.B) *cpuMeter {
	b.Helper()
	goruntime.GC()
	m := &cpuMeter{}
	m.start, m.ok = processCPU()
	return m
}

func (m *cpuMeter) stop(b *testing.B, ops int) {
	b.Helper()
	end, ok := processCPU()
	if m.ok && ok && ops > 0 {
		b.ReportMetric(float64((end-m.start).Nanoseconds())/float64(ops), "cpu-ns/op")
	}
}

// BenchmarkNestedAgentTools runs two agents that use each other as tools,
// nested to a depth: time and memory per run grow in proportion to the
// depth (B/op divided by the depth stays flat), as each level adds one
// child run of constant size.
func BenchmarkNestedAgentTools(b *testing.B) {
	for _, depth := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			caps := runtime.Caps{MaxSteps: 4, MaxDuration: time.Hour, MaxDepth: depth}
			rt := pingPongRuntime(b, caps, caps)
			client := rt.Client("ping")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := client.Run(context.Background(), userSays("start")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
