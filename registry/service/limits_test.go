package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// chainSchema is an object schema whose property "a" nests items depth-3
// levels deep: depth JSON levels in all, about 10 bytes a level, the shape
// whose compile cost grows with the cube of its depth.
func chainSchema(depth int) json.RawMessage {
	n := depth - 3
	return json.RawMessage(`{"type":"object","properties":{"a":` + strings.Repeat(`{"items":`, n) + `{}` + strings.Repeat(`}`, n) + `}}`)
}

// wideSchema is an object schema with n string properties.
func wideSchema(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}

// toolsetOf returns a toolset of n tools with the given payload schema.
func toolsetOf(n int, payload json.RawMessage) tools.ToolsetSchema {
	ts := tools.ToolsetSchema{Name: "heavy"}
	for i := range n {
		ts.Tools = append(ts.Tools, tools.ToolSchema{Name: tools.Ident(fmt.Sprintf("heavy.t%d", i)), Description: "d", Payload: payload})
	}
	return ts
}

func TestPublishSchemaLimits(t *testing.T) {
	limits := registry.DefaultSchemaLimits
	// Small limits keep the boundary cases cheap to compile; the default
	// limits are checked on the shapes the issue names.
	small := registry.SchemaLimits{MaxDepth: limits.MaxDepth, MaxBytes: 8 << 10, MaxWork: 5_000}
	cases := []struct {
		name    string
		limits  registry.SchemaLimits
		toolset tools.ToolsetSchema
		errPart string // "": accepted
	}{
		{"the issue's 990-deep schema", limits, toolsetOf(1, chainSchema(990)), "nests deeper than 32 levels, the limit per schema (MaxDepth)"},
		{"one level over the depth", limits, toolsetOf(1, chainSchema(limits.MaxDepth+1)), "(MaxDepth)"},
		{"at the depth", limits, toolsetOf(1, chainSchema(limits.MaxDepth)), ""},
		{"over the default size", limits, toolsetOf(1, wideSchema(3_000)), "over the limit of 65536 bytes per schema (MaxBytes)"},
		{"over the default work", limits, toolsetOf(13, wideSchema(1_000)), "the compile work limit per toolset (MaxWork)"},
		{"over the size", small, toolsetOf(1, wideSchema(400)), "over the limit of 8192 bytes per schema (MaxBytes)"},
		{"near the size", small, toolsetOf(1, wideSchema(300)), ""},
		{"over the work", small, toolsetOf(5, wideSchema(300)), "the compile work limit per toolset (MaxWork)"},
		{"at the work", small, toolsetOf(4, wideSchema(300)), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, service.WithSchemaLimits(tc.limits))
			_, err := h.client.Publish(context.Background(), &registry.PublishRequest{Toolset: tc.toolset, Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
			if tc.errPart == "" {
				if err != nil {
					t.Fatalf("Publish: %v", err)
				}
				return
			}
			var e *registry.Error
			if !errors.As(err, &e) || !errors.Is(err, registry.ErrSchemaLimit) || e.Code.Status() != http.StatusUnprocessableEntity {
				t.Fatalf("Publish error %v, want a 422 schema_limit", err)
			}
			if !strings.Contains(e.Message, tc.errPart) || !strings.Contains(e.Message, `toolset "heavy"`) {
				t.Fatalf("message %q does not name the toolset and %q", e.Message, tc.errPart)
			}
			cat, err := h.client.ListToolsets(context.Background())
			if err != nil || len(cat.Toolsets) != 0 {
				t.Fatalf("a refused publish changed the registry: %v, %+v", err, cat)
			}
		})
	}
}

// TestRestartChecksSchemaLimits: a stored toolset over the limits of the
// restarted registry is refused by name before it is compiled, not compiled
// at whatever cost.
func TestRestartChecksSchemaLimits(t *testing.T) {
	dir := t.TempDir()
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Publish(context.Background(), &registry.PublishRequest{Toolset: toolsetOf(1, chainSchema(20)), Revision: "r1", Endpoint: "http://127.0.0.1:1/"}); err != nil {
		t.Fatal(err)
	}
	_ = svc.Close()
	strict := registry.SchemaLimits{MaxDepth: 10, MaxBytes: 1 << 20, MaxWork: 1 << 20}
	_, err = service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir), service.WithSchemaLimits(strict))
	if !errors.Is(err, registry.ErrSchemaLimit) || !strings.Contains(err.Error(), "deeper than 10 levels") {
		t.Fatalf("restart with stricter limits: %v, want the schema limit named", err)
	}
	if _, err := service.New(service.WithLoopbackEndpoints(), service.WithDataDir(dir)); err != nil {
		t.Fatalf("restart with the limits it was published under: %v", err)
	}
}

func TestSchemaLimitsOption(t *testing.T) {
	for _, n := range []int{0, -1, registry.MaxAnswerRecordBytes + 1} {
		if _, err := service.New(service.WithLoopbackEndpoints(), service.WithMaxPageBytes(n)); err == nil {
			t.Errorf("service.New accepted a page of %d bytes", n)
		}
	}
	for _, l := range []registry.SchemaLimits{{}, {MaxDepth: 1, MaxBytes: 1}, {MaxDepth: -1, MaxBytes: 1, MaxWork: 1}} {
		if _, err := service.New(service.WithLoopbackEndpoints(), service.WithSchemaLimits(l)); err == nil {
			t.Errorf("service.New accepted limits %+v", l)
		}
	}
}

// BenchmarkPublishAtSchemaLimits publishes the most expensive toolsets the
// default limits admit (depth, size and work each at the limit) and, for
// comparison, compiles the 990-deep schema with no limits and
// refuses it with the default ones.
//
//	go test -run=^$ -bench=PublishAtSchemaLimits -benchtime=2x -benchmem ./registry/service/
func BenchmarkPublishAtSchemaLimits(b *testing.B) {
	limits := registry.DefaultSchemaLimits
	chain := chainSchema(limits.MaxDepth)
	tokens := 2 * (limits.MaxDepth - 2)
	unlimited := service.WithSchemaLimits(registry.SchemaLimits{MaxDepth: 1 << 20, MaxBytes: 1 << 30, MaxWork: 1 << 30})
	cases := []struct {
		name    string
		toolset tools.ToolsetSchema
		refused bool
		opts    []service.Option
	}{
		{"990-deep schema without limits", toolsetOf(1, chainSchema(990)), false, []service.Option{unlimited}},
		{"deep chains at the work limit", toolsetOf(limits.MaxWork/(tokens+8), chain), false, nil},
		{"wide schemas at the work limit", toolsetOf(12, wideSchema(1_000)), false, nil},
		{"one schema near the size limit", toolsetOf(1, wideSchema(2_500)), false, nil},
		{"990-deep schema refused", toolsetOf(1, chainSchema(990)), true, nil},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				svc, err := service.New(append(tc.opts, service.WithLoopbackEndpoints())...)
				if err != nil {
					b.Fatal(err)
				}
				_, err = svc.Publish(context.Background(), &registry.PublishRequest{Toolset: tc.toolset, Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
				if (err != nil) != tc.refused {
					b.Fatalf("Publish: %v", err)
				}
			}
		})
	}
}
