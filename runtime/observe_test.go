package runtime_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// telemetrySink collects what a runtime emits through the SDK's in-memory
// exporters and a JSON log handler.
type telemetrySink struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	logs   bytes.Buffer
}

// newObservedRuntime returns a records runtime (see newRecordsRuntime)
// wired to a fresh sink.
func newObservedRuntime(t *testing.T, client model.Client, policy runtime.Policy) (*runtime.Runtime, *telemetrySink, *recordingExecutor) {
	t.Helper()
	sink := &telemetrySink{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sink.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sink.reader))
	logger := slog.New(slog.NewJSONHandler(&sink.logs, nil))
	rt := runtime.New(runtime.WithTracerProvider(tp), runtime.WithMeterProvider(mp), runtime.WithLogger(logger))
	exec := &recordingExecutor{}
	registerToolset(t, rt, "records", exec, recordsTools...)
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:      "assistant",
		Immediate: []tools.Ident{"records.lookup"},
		Deferred:  []tools.Ident{"records.search", "records.analyze", "records.delete", "records.export"},
		Planner:   plannerFor(client),
		Policy:    policy,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rt, sink, exec
}

// metrics returns the collected metrics by name.
func (s *telemetrySink) metrics(t *testing.T) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]metricdata.Aggregation)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

// metricPoints returns the attribute sets of every data point of a metric,
// with its value: the sum of a counter, the count of a histogram.
func metricPoints(agg metricdata.Aggregation) map[string]float64 {
	out := make(map[string]float64)
	switch d := agg.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out[p.Attributes.Encoded(attribute.DefaultEncoder())] += float64(p.Value)
		}
	case metricdata.Histogram[int64]:
		for _, p := range d.DataPoints {
			out[p.Attributes.Encoded(attribute.DefaultEncoder())] += float64(p.Count)
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out[p.Attributes.Encoded(attribute.DefaultEncoder())] += float64(p.Count)
		}
	}
	return out
}

// histogramSum returns the sum of an int64 histogram's recorded values.
func histogramSum(agg metricdata.Aggregation) int64 {
	var sum int64
	if d, ok := agg.(metricdata.Histogram[int64]); ok {
		for _, p := range d.DataPoints {
			sum += p.Sum
		}
	}
	return sum
}

// spansNamed returns the ended spans with that name, in order of ending.
func (s *telemetrySink) spansNamed(name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, sp := range s.spans.Ended() {
		if sp.Name() == name {
			out = append(out, sp)
		}
	}
	return out
}

func attrsOf(sp sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	out := make(map[attribute.Key]attribute.Value)
	for _, kv := range sp.Attributes() {
		out[kv.Key] = kv.Value
	}
	return out
}

func TestTelemetrySpansAndMetrics(t *testing.T) {
	client := newScriptedClient(
		respond(t, searchPart("d1", "customer records keywords"), searchPart("d2", "weather forecast"), callPart("c1", "records_lookup", `{"id":"42"}`)),
		respond(t, callPart("c2", "records_search", `{"id":"x"}`)),
		final(t, "done"),
	)
	rt, sink, exec := newObservedRuntime(t, client, runtime.Policy{})
	out, err := rt.Client("assistant").Run(context.Background(), userSays("find records"), runtime.WithRunID("run-1"))
	if err != nil {
		t.Fatal(err)
	}
	if exec.count() != 2 {
		t.Fatalf("executed %d calls, want 2", exec.count())
	}

	runSpans := sink.spansNamed("invoke_agent assistant")
	if len(runSpans) != 1 {
		t.Fatalf("%d run spans, want 1", len(runSpans))
	}
	run := runSpans[0]
	ra := attrsOf(run)
	for key, want := range map[attribute.Key]string{
		"gen_ai.operation.name":  "invoke_agent",
		"gen_ai.agent.name":      "assistant",
		"gen_ai.conversation.id": "run-1",
		"goa_discovery.run.stop": "completed",
	} {
		if got := ra[key].Emit(); got != want {
			t.Errorf("run span %s = %q, want %q", key, got, want)
		}
	}
	if got := ra["goa_discovery.run.steps"].AsInt64(); got != 3 {
		t.Errorf("run span steps = %d, want 3", got)
	}
	if got, want := ra["gen_ai.usage.input_tokens"].AsInt64(), int64(out.Usage.InputTokens); got != want || got == 0 {
		t.Errorf("run span input tokens = %d, want %d", got, want)
	}

	steps := sink.spansNamed("step")
	if len(steps) != 3 {
		t.Fatalf("%d step spans, want 3", len(steps))
	}
	for i, sp := range steps {
		if sp.Parent().SpanID() != run.SpanContext().SpanID() {
			t.Errorf("step %d is not a child of the run span", i+1)
		}
		if got := attrsOf(sp)["goa_discovery.step"].AsInt64(); got != int64(i+1) {
			t.Errorf("step span %d has step %d", i+1, got)
		}
	}
	if n := len(sink.spansNamed("resolve catalog")); n != 3 {
		t.Errorf("%d catalog spans, want 3", n)
	}

	chats := sink.spansNamed("chat test-model")
	if len(chats) != 3 {
		t.Fatalf("%d planner spans, want 3", len(chats))
	}
	ca := attrsOf(chats[0])
	if ca["gen_ai.request.model"].AsString() != "test-model" || ca["gen_ai.operation.name"].AsString() != "chat" {
		t.Errorf("planner span attributes: %v", chats[0].Attributes())
	}
	if got := ca["gen_ai.usage.output_tokens"].AsInt64(); got != 2 {
		t.Errorf("planner span output tokens = %d, want 2", got)
	}
	// Step 1 declares lookup and the discovery tool; step 2 also the three
	// tools discovered by d1.
	declared := client.requestTools()
	for i, sp := range chats {
		if got := attrsOf(sp)["goa_discovery.request.tools"].AsInt64(); got != int64(len(declared[i])) {
			t.Errorf("planner span %d declares %d tools, the request %d", i+1, got, len(declared[i]))
		}
	}

	disc := sink.spansNamed("discover tools")
	if len(disc) != 2 {
		t.Fatalf("%d discovery spans, want 2", len(disc))
	}
	found, missed := attrsOf(disc[0]), attrsOf(disc[1])
	if found["goa_discovery.discovery.query"].AsString() != "customer records keywords" || found["goa_discovery.discovery.empty"].AsBool() {
		t.Errorf("discovery span d1: %v", disc[0].Attributes())
	}
	if n := found["goa_discovery.discovery.results"].AsInt64(); n == 0 || int(n) != len(found["goa_discovery.discovery.found"].AsStringSlice()) {
		t.Errorf("discovery span d1 results %d, found %v", n, found["goa_discovery.discovery.found"].AsStringSlice())
	}
	if !missed["goa_discovery.discovery.empty"].AsBool() || missed["goa_discovery.discovery.results"].AsInt64() != 0 || missed["goa_discovery.discovery.mode"].AsString() != "query" {
		t.Errorf("discovery span d2: %v", disc[1].Attributes())
	}

	for _, c := range []struct{ name, id string }{{"records_lookup", "c1"}, {"records_search", "c2"}} {
		spans := sink.spansNamed("execute_tool " + c.name)
		if len(spans) != 1 {
			t.Fatalf("%d spans for %s, want 1", len(spans), c.name)
		}
		a := attrsOf(spans[0])
		if a["gen_ai.operation.name"].AsString() != "execute_tool" || a["gen_ai.tool.name"].AsString() != c.name || a["gen_ai.tool.call.id"].AsString() != c.id || !a["goa_discovery.tool.ran"].AsBool() {
			t.Errorf("tool span %s: %v", c.name, spans[0].Attributes())
		}
	}

	m := sink.metrics(t)
	agentOnly := "gen_ai.agent.name=assistant"
	byQuery := "gen_ai.agent.name=assistant,goa_discovery.discovery.mode=query"
	for _, c := range []struct {
		metric, attrs string
		want          float64
	}{
		{runtime.MetricDiscoveryCalls, byQuery, 2},
		{runtime.MetricDiscoveryEmpty, byQuery, 1},
		{runtime.MetricDiscoveryLatency, byQuery, 2},
		{runtime.MetricDeclaredTools, agentOnly, 3},
		{runtime.MetricDeclaredBytes, agentOnly, 3},
	} {
		if got := metricPoints(m[c.metric])[c.attrs]; got != c.want {
			t.Errorf("%s{%s} = %v, want %v (points %v)", c.metric, c.attrs, got, c.want, metricPoints(m[c.metric]))
		}
	}
	var wantTools int64
	for _, d := range declared {
		wantTools += int64(len(d))
	}
	if got := histogramSum(m[runtime.MetricDeclaredTools]); got != wantTools {
		t.Errorf("declared tools sum %d, want %d", got, wantTools)
	}
	if _, ok := m[runtime.MetricToolErrors]; ok {
		t.Errorf("tool errors recorded for a run without failures: %v", metricPoints(m[runtime.MetricToolErrors]))
	}

	logs := sink.logs.String()
	for _, want := range []string{`"msg":"run started"`, `"msg":"run ended"`, `"msg":"discovery"`, `"query":"weather forecast"`, `"msg":"tool call"`, `"tool":"records_search"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
}

// failingExecutor is a ToolExecutor test double that fails every call.
type failingExecutor struct{}

func (failingExecutor) Execute(context.Context, *runtime.ToolInvocation) (any, error) {
	return nil, fmt.Errorf("backend down")
}

func TestTelemetryToolError(t *testing.T) {
	sink := &telemetrySink{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	rt := runtime.New(
		runtime.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sink.spans))),
		runtime.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sink.reader))),
	)
	registerToolset(t, rt, "records", failingExecutor{}, recordsTools...)
	client := newScriptedClient(respond(t, callPart("c1", "records_lookup", `{"id":"1"}`)), final(t, "sorry"))
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name: "assistant", Immediate: []tools.Ident{"records.lookup"}, Planner: plannerFor(client),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Client("assistant").Run(context.Background(), userSays("look up 1")); err != nil {
		t.Fatal(err)
	}
	m := sink.metrics(t)
	if got := metricPoints(m[runtime.MetricToolErrors])["gen_ai.agent.name=assistant,gen_ai.tool.name=records_lookup"]; got != 1 {
		t.Errorf("tool errors = %v, want 1", metricPoints(m[runtime.MetricToolErrors]))
	}
	spans := sink.spansNamed("execute_tool records_lookup")
	if len(spans) != 1 || spans[0].Status().Code.String() != "Error" {
		t.Fatalf("tool span status: %v", spans)
	}
}

// collectedText returns every span name, attribute, event, status, metric
// attribute and log line the sink holds, one per line.
func (s *telemetrySink) collectedText(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, sp := range s.spans.Ended() {
		out = append(out, sp.Name(), sp.Status().Description)
		for _, kv := range sp.Attributes() {
			out = append(out, string(kv.Key)+"="+kv.Value.Emit())
		}
		for _, ev := range sp.Events() {
			out = append(out, ev.Name)
			for _, kv := range ev.Attributes {
				out = append(out, string(kv.Key)+"="+kv.Value.Emit())
			}
		}
	}
	for name, agg := range s.metrics(t) {
		for attrs := range metricPoints(agg) {
			out = append(out, name+"{"+attrs+"}")
		}
	}
	out = append(out, strings.Split(s.logs.String(), "\n")...)
	return out
}

func TestTelemetryNamesNothingOutsidePolicy(t *testing.T) {
	const secretArg = "arg-7f3e-secret"
	// The model searches for the hidden tool, asks for it by name and
	// calls it; the run's policy denies it.
	client := newScriptedClient(
		respond(t, searchPart("d1", "remove customer record permanently"), searchPart("d2", "", "records_delete")),
		respond(t, callPart("c1", "records_delete", `{"id":"`+secretArg+`"}`)),
		final(t, "cannot"),
	)
	rt, sink, exec := newObservedRuntime(t, client, runtime.Policy{DenyTools: []tools.Ident{"records.delete"}})
	out, err := rt.Client("assistant").Run(context.Background(), userSays("delete record"))
	if err != nil {
		t.Fatal(err)
	}
	if exec.count() != 0 {
		t.Fatalf("the hidden tool ran")
	}
	// The check can fail: the run did produce discovery and tool telemetry.
	if len(sink.spansNamed("discover tools")) != 2 || sink.logs.Len() == 0 {
		t.Fatalf("the run emitted no discovery telemetry")
	}
	hidden := []string{"records_delete", "records.delete", "Delete a customer record permanently", secretArg}
	for _, line := range sink.collectedText(t) {
		for _, h := range hidden {
			if strings.Contains(line, h) {
				t.Errorf("telemetry mentions %q: %s", h, line)
			}
		}
	}
	// The history itself refused the call: the policy held.
	if res := toolResults(out.Messages)["c1"]; !res.IsError {
		t.Errorf("the hidden tool's call was not refused: %+v", res)
	}
	if slices.ContainsFunc(sink.spans.Ended(), func(sp sdktrace.ReadOnlySpan) bool { return strings.HasPrefix(sp.Name(), "execute_tool") }) {
		t.Errorf("a refused call has a tool execution span")
	}
}

func TestTelemetryChildRunNestsUnderToolSpan(t *testing.T) {
	sink := &telemetrySink{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	rt := runtime.New(runtime.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sink.spans))))
	exec := &recordingExecutor{}
	registerToolset(t, rt, "records", exec, recordsTools...)
	childClient := newScriptedClient(final(t, "child answer"))
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name: "expert", Immediate: []tools.Ident{"records.lookup"}, Planner: plannerFor(childClient),
	}); err != nil {
		t.Fatal(err)
	}
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "expert", Agent: "expert", Description: "Ask the records expert"}); err != nil {
		t.Fatal(err)
	}
	leadClient := newScriptedClient(respond(t, callPart("c1", "experts_expert", `{"request":"help"}`)), final(t, "done"))
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name: "lead", Immediate: []tools.Ident{"experts.expert"}, Planner: plannerFor(leadClient),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Client("lead").Run(context.Background(), userSays("ask"), runtime.WithRunID("lead-run")); err != nil {
		t.Fatal(err)
	}
	tool := sink.spansNamed("execute_tool experts_expert")
	child := sink.spansNamed("invoke_agent expert")
	if len(tool) != 1 || len(child) != 1 {
		t.Fatalf("%d tool spans and %d child run spans, want 1 and 1", len(tool), len(child))
	}
	if child[0].Parent().SpanID() != tool[0].SpanContext().SpanID() {
		t.Errorf("the child run's span is not a child of the tool execution span")
	}
	if got := attrsOf(child[0])["goa_discovery.run.parent_id"].AsString(); got != "lead-run" {
		t.Errorf("child run span parent id %q, want lead-run", got)
	}
}

func TestTelemetryRegistryReads(t *testing.T) {
	sink := &telemetrySink{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	rt := runtime.New(
		runtime.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sink.spans))),
		runtime.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sink.reader))),
		runtime.WithLogger(slog.New(slog.NewJSONHandler(&sink.logs, nil))),
	)
	reg := newMemoryRegistry()
	reg.publish(t, toolsetSchema(t, "ops", toolDef{name: "restart", description: "Restart a service"}))
	if err := rt.RegisterRegistry("company", reg); err != nil {
		t.Fatal(err)
	}
	client := newScriptedClient(final(t, "fine"))
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name: "ops", Registries: []runtime.RegistrySource{{Registry: "company", Toolset: "ops"}}, Planner: plannerFor(client),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Client("ops").Run(context.Background(), userSays("status")); err != nil {
		t.Fatal(err)
	}
	reg.mu.Lock()
	reg.fail = fmt.Errorf("registry unreachable")
	reg.mu.Unlock()
	if _, err := rt.Client("ops").Run(context.Background(), userSays("status")); err == nil {
		t.Fatal("a run whose registry fails succeeded")
	}

	spans := sink.spansNamed("resolve registry company")
	if len(spans) != 2 {
		t.Fatalf("%d registry spans, want 2", len(spans))
	}
	ok, failed := attrsOf(spans[0]), attrsOf(spans[1])
	if got := ok["goa_discovery.registry.toolsets"].AsInt64(); got != 1 || spans[0].Status().Code.String() == "Error" {
		t.Errorf("successful read: toolsets %d, status %v", got, spans[0].Status())
	}
	if got := ok["goa_discovery.registry.sources"].AsStringSlice(); !slices.Equal(got, []string{"company/ops"}) {
		t.Errorf("registry span sources %q", got)
	}
	if spans[1].Status().Code.String() != "Error" || failed["error.type"].AsString() != "_OTHER" {
		t.Errorf("failed read: status %v, attributes %v", spans[1].Status(), spans[1].Attributes())
	}
	m := sink.metrics(t)
	if got := metricPoints(m[runtime.MetricRegistryFailures])["goa_discovery.registry.name=company"]; got != 1 {
		t.Errorf("registry failures %v, want 1", metricPoints(m[runtime.MetricRegistryFailures]))
	}
	if !strings.Contains(sink.logs.String(), `"msg":"registry read failed","registry":"company"`) {
		t.Errorf("no log of the failed read:\n%s", sink.logs.String())
	}
}
