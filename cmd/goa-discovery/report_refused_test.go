package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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

// changingRegistry is a RegistryClient test double holding one toolset,
// "billing" with its tool "refund", whose description changes after the
// first read: a tool discovered in step 1 has changed by step 2.
type changingRegistry struct {
	mu    sync.Mutex
	reads int
}

func (r *changingRegistry) current() (runtime.ResolvedToolset, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reads++
	desc := "Refund an invoice payment"
	if r.reads > 1 {
		desc = "Refund an invoice payment, partially or fully"
	}
	ts := tools.ToolsetSchema{Name: "billing", Description: "Billing", Tools: []tools.ToolSchema{{Name: "billing.refund", Description: desc, Payload: json.RawMessage(reportPayload)}}}
	fp, err := tools.ToolsetFingerprint(&ts)
	if err != nil {
		return runtime.ResolvedToolset{}, err
	}
	return runtime.ResolvedToolset{Schema: ts, Fingerprint: fp, Token: fmt.Sprintf("%s#%d", fp, r.reads)}, nil
}

func (r *changingRegistry) ResolveToolset(_ context.Context, name string) (*runtime.ResolvedToolset, error) {
	if name != "billing" {
		return nil, fmt.Errorf("toolset %q not found", name)
	}
	ts, err := r.current()
	return &ts, err
}

func (r *changingRegistry) ListToolsets(context.Context) ([]runtime.ResolvedToolset, error) {
	ts, err := r.current()
	return []runtime.ResolvedToolset{ts}, err
}

func (r *changingRegistry) CallTool(context.Context, *runtime.RegistryCall) (json.RawMessage, error) {
	return json.RawMessage(`"refunded"`), nil
}

// refusalSink collects what a runtime emits: spans, metrics and JSON logs.
type refusalSink struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	logs   bytes.Buffer
}

// refusalRuntime returns a runtime wired to sink with the "records" toolset
// (lookup immediate; search, analyze, delete, export deferred; delete hidden
// by the agent's policy), the changing "billing" registry (deferred) and the
// agent "assistant" that may call itself as the tool experts_ask.
func refusalRuntime(t *testing.T, sink *refusalSink, planner runtime.Planner) *runtime.Runtime {
	t.Helper()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sink.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sink.reader))
	rt := runtime.New(runtime.WithTracerProvider(tp), runtime.WithMeterProvider(mp), runtime.WithLogger(slog.New(slog.NewJSONHandler(&sink.logs, nil))))
	ts := tools.ToolsetSchema{Name: "records", Description: "Customer records"}
	reg := runtime.ToolsetRegistration{Executor: echoExecutor{}}
	schema := tools.MustCompileSchema([]byte(reportPayload))
	for _, name := range []string{"lookup", "search", "analyze", "delete", "export"} {
		id := tools.Ident("records." + name)
		desc := "The records tool " + name
		ts.Tools = append(ts.Tools, tools.ToolSchema{Name: id, Description: desc, Payload: json.RawMessage(reportPayload)})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: desc, Payload: tools.NewRawCodec(schema)})
	}
	reg.Schema = ts
	if err := rt.RegisterToolset(reg); err != nil {
		t.Fatal(err)
	}
	if err := rt.RegisterRegistry("company", &changingRegistry{}); err != nil {
		t.Fatal(err)
	}
	if err := rt.RegisterAgentTools("experts", runtime.AgentTool{Tool: "ask", Agent: "assistant", Description: "Ask the assistant"}); err != nil {
		t.Fatal(err)
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:       "assistant",
		Immediate:  []tools.Ident{"records.lookup", "experts.ask"},
		Deferred:   []tools.Ident{"records.search", "records.analyze", "records.delete", "records.export"},
		Registries: []runtime.RegistrySource{{Registry: "company", Toolset: "billing", Deferred: true}},
		Planner:    planner,
		Policy:     runtime.Policy{DenyTools: []tools.Ident{"records.delete"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func callArgs(id, name, args string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})
}

// TestRefusedCallsAreRecorded runs a model into each refusal and checks the
// four places a refusal is a fact: the run's record, an event on the step's
// span, the refused-calls metric by reason, and the report's line (with the
// NOT DISCOVERED column for a call before discovery). A tool the policy
// hides, or a name no tool has, is counted and never named.
func TestRefusedCallsAreRecorded(t *testing.T) {
	cases := []struct {
		reason runtime.RefusalReason
		name   string // the refused call's tool as recorded; empty: not named
		called string // the name the model called, when not recorded
		steps  [][]model.Part
		caps   runtime.Caps
		cancel bool // the planner's first step cancels the run's context
		child  bool // the refusal happens in the child run
	}{
		{reason: runtime.RefusedNotDiscovered, name: "records_search", steps: [][]model.Part{{call("c1", "records_search")}, {text("done")}}},
		{reason: runtime.RefusedChanged, name: "billing_refund", steps: [][]model.Part{{byNames("d1", "billing_refund")}, {call("c1", "billing_refund")}, {text("done")}}},
		{reason: runtime.RefusedHidden, called: "records_delete", steps: [][]model.Part{{call("c1", "records_delete")}, {text("done")}}},
		{reason: runtime.RefusedUnknown, called: "records_purge", steps: [][]model.Part{{call("c1", "records_purge")}, {text("done")}}},
		{reason: runtime.RefusedDiscoveryTool, name: runtime.DiscoveryToolName, steps: [][]model.Part{{callArgs("c1", runtime.DiscoveryToolName, `{"query":"x"}`)}, {text("done")}}},
		{reason: runtime.RefusedInvalidArguments, name: "records_lookup", steps: [][]model.Part{{callArgs("c1", "records_lookup", `{"id":7}`)}, {text("done")}}},
		{reason: runtime.RefusedMaxToolCalls, name: "records_lookup", caps: runtime.Caps{MaxToolCalls: 1}, steps: [][]model.Part{{call("c0", "records_lookup"), call("c1", "records_lookup")}}},
		{reason: runtime.RefusedMaxDepth, name: "experts_ask", caps: runtime.Caps{MaxDepth: 1}, child: true, steps: [][]model.Part{
			{callArgs("c0", "experts_ask", `{"request":"help"}`)}, {callArgs("c1", "experts_ask", `{"request":"help"}`)}, {text("done")},
		}},
		{reason: runtime.RefusedRunEnded, name: "records_lookup", cancel: true, steps: [][]model.Part{{call("c1", "records_lookup")}}},
	}
	for _, c := range cases {
		t.Run(string(c.reason), func(t *testing.T) {
			sink := &refusalSink{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			planner := scriptedPlanner(t, c.steps...)
			if c.cancel {
				inner := planner
				planner = runtime.PlannerFunc(func(pctx context.Context, in *runtime.PlanInput) (*model.Response, error) {
					cancel()
					return inner.Plan(pctx, in)
				})
			}
			rt := refusalRuntime(t, sink, planner)
			out, err := rt.Client("assistant").Run(ctx, []model.Message{model.UserMessage("help")}, runtime.WithRunID("run-1"), runtime.WithCaps(c.caps))
			var capErr *runtime.CapError
			switch {
			case c.cancel && !errors.Is(err, context.Canceled):
				t.Fatalf("run error %v, want the cancellation", err)
			case c.reason == runtime.RefusedMaxToolCalls && !errors.As(err, &capErr):
				t.Fatalf("run error %v, want a cap error", err)
			case !c.cancel && c.reason != runtime.RefusedMaxToolCalls && err != nil:
				t.Fatal(err)
			}

			// The record: in the output and in the stored run.
			runID, refusals := "run-1", out.Refusals
			if c.child {
				if len(out.Calls) != 1 || out.Calls[0].ChildRunID == "" {
					t.Fatalf("no child run recorded: %+v", out.Calls)
				}
				runID, refusals = out.Calls[0].ChildRunID, nil
				if len(out.Refusals) != 0 {
					t.Errorf("the parent recorded refusals %+v", out.Refusals)
				}
			}
			state, err := rt.LoadRun(context.Background(), runID)
			if err != nil {
				t.Fatal(err)
			}
			want := runtime.Refusal{CallID: "c1", Step: 1, Reason: c.reason, Name: c.name}
			if c.reason == runtime.RefusedChanged {
				want.Step = 2
			}
			if !c.child && (len(refusals) != 1 || refusals[0] != want) {
				t.Errorf("output refusals %+v, want [%+v]", refusals, want)
			}
			if len(state.Refusals) != 1 || state.Refusals[0] != want {
				t.Errorf("stored refusals %+v, want [%+v]", state.Refusals, want)
			}

			// The span event, on a step span.
			var events int
			for _, sp := range sink.spans.Ended() {
				for _, ev := range sp.Events() {
					if ev.Name != runtime.EventToolRefused {
						continue
					}
					events++
					attrs := attribute.NewSet(ev.Attributes...)
					if sp.Name() != "step" {
						t.Errorf("refusal event on span %q, want step", sp.Name())
					}
					if v, _ := attrs.Value("goa_discovery.tool.refusal_reason"); v.AsString() != string(c.reason) {
						t.Errorf("event reason %q, want %q", v.AsString(), c.reason)
					}
					if v, ok := attrs.Value("gen_ai.tool.name"); v.AsString() != c.name || ok != (c.name != "") {
						t.Errorf("event tool %q (present %v), want %q", v.AsString(), ok, c.name)
					}
				}
			}
			if events != 1 {
				t.Errorf("%d refusal events, want 1", events)
			}

			// The metric, by reason.
			var rm metricdata.ResourceMetrics
			if err := sink.reader.Collect(context.Background(), &rm); err != nil {
				t.Fatal(err)
			}
			points := map[string]int64{}
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == runtime.MetricToolRefused {
						for _, p := range sum.DataPoints {
							points[p.Attributes.Encoded(attribute.DefaultEncoder())] += p.Value
						}
					}
				}
			}
			wantPoint := "gen_ai.agent.name=assistant,goa_discovery.tool.refusal_reason=" + string(c.reason)
			if len(points) != 1 || points[wantPoint] != 1 {
				t.Errorf("refused metric %v, want {%s: 1}", points, wantPoint)
			}

			// The log record.
			if !strings.Contains(sink.logs.String(), `"msg":"tool call refused"`) || !strings.Contains(sink.logs.String(), `"reason":"`+string(c.reason)+`"`) {
				t.Errorf("no refusal log record:\n%s", sink.logs.String())
			}

			// The report line, over every stored run.
			var data []byte
			for _, id := range []string{"run-1", runID} {
				s, err := rt.LoadRun(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(s)
				if err != nil {
					t.Fatal(err)
				}
				data = append(append(data, b...), '\n')
				if id == runID {
					break
				}
			}
			path := filepath.Join(t.TempDir(), "runs.json")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"report", path}, &stdout, &stderr); code != 0 {
				t.Fatalf("report exited %d: %s", code, stderr.String())
			}
			shown := c.name
			if shown == "" {
				shown = "-"
			}
			line := regexp.MustCompile(`(?m)^  1 +` + string(c.reason) + ` +` + regexp.QuoteMeta(shown) + `$`)
			if !line.MatchString(stdout.String()) {
				t.Errorf("the report has no line %q:\n%s", line, stdout.String())
			}
			if c.reason == runtime.RefusedNotDiscovered {
				col := regexp.MustCompile(`(?m)^  0 +records_search +- +0 +1$`)
				if !col.MatchString(stdout.String()) {
					t.Errorf("the report's NOT DISCOVERED column does not count the call:\n%s", stdout.String())
				}
			}

			// A tool the run may not use is never named.
			if c.called != "" {
				var texts []string
				for _, sp := range sink.spans.Ended() {
					texts = append(texts, sp.Name())
					for _, kv := range sp.Attributes() {
						texts = append(texts, kv.Value.Emit())
					}
					for _, ev := range sp.Events() {
						for _, kv := range ev.Attributes {
							texts = append(texts, kv.Value.Emit())
						}
					}
				}
				for p := range points {
					texts = append(texts, p)
				}
				texts = append(texts, sink.logs.String(), stdout.String())
				b, err := json.Marshal(state.Refusals)
				if err != nil {
					t.Fatal(err)
				}
				texts = append(texts, string(b))
				for _, s := range texts {
					if strings.Contains(s, c.called) {
						t.Errorf("%q is named: %s", c.called, s)
					}
				}
			}
		})
	}
}
