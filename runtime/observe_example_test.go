package runtime_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// The README's "Observability" section shows the body of this example.
func ExampleWithTracerProvider() {
	ctx := context.Background()
	// Any exporter and reader: OTLP in production, in memory here.
	exporter := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer func() { _ = tp.Shutdown(ctx); _ = mp.Shutdown(ctx) }()

	rt := runtime.New(
		runtime.WithTracerProvider(tp),
		runtime.WithMeterProvider(mp),
		runtime.WithLogger(slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	)

	// A planner that answers at once stands in for a model here.
	answer := runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
		return model.NewResponse(model.AssistantMessage(model.TextPart("hello")), model.FinishStop, model.Usage{})
	})
	if err := rt.RegisterAgent(ctx, runtime.AgentRegistration{Name: "greeter", Planner: answer}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := rt.Client("greeter").Run(ctx, []model.Message{model.UserMessage("hi")}); err != nil {
		fmt.Println(err)
		return
	}

	for _, span := range exporter.GetSpans() {
		fmt.Println(span.Name)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		fmt.Println(err)
		return
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			fmt.Println("metric", m.Name)
		}
	}
	// Output:
	// resolve catalog
	// chat
	// step
	// invoke_agent greeter
	// metric goa_discovery.request.tools
	// metric goa_discovery.request.tool_bytes
	// metric gen_ai.client.token.usage
}

// TestDocsObservabilitySnippet checks that the first Go snippet of
// docs/observability.md is the body of ExampleWithTracerProvider, so that it
// compiles and runs.
func TestDocsObservabilitySnippet(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "observability.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	_, snippet, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal("the Observability section has no Go snippet")
	}
	snippet, _, _ = strings.Cut(snippet, "```")
	src, err := os.ReadFile("observe_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	// The example's body is indented one tab.
	var body strings.Builder
	for _, line := range strings.Split(strings.TrimRight(snippet, "\n"), "\n") {
		if line != "" {
			line = "\t" + line
		}
		body.WriteString(line + "\n")
	}
	if !strings.Contains(string(src), body.String()) {
		t.Errorf("docs/observability.md's snippet is not part of ExampleWithTracerProvider:\n%s", snippet)
	}
}
