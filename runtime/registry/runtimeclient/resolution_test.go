package runtimeclient_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestFailuresMidResolution fails a step whose registry fails, disappears
// or loses a toolset after the step read its first source and before it
// read its second: the step fails explicitly, and the planner never sees a
// partial catalog.
func TestFailuresMidResolution(t *testing.T) {
	cases := []struct {
		name string
		// second answers the step's second read, or lets it through.
		second func(t *testing.T, w *world, regs map[string]registry.Registration, rw http.ResponseWriter) bool
		want   error
	}{
		{"registry fails", func(_ *testing.T, _ *world, _ map[string]registry.Registration, rw http.ResponseWriter) bool {
			registry.WriteError(rw, registry.Errorf(registry.CodeInternal, "store unavailable"))
			return true
		}, registry.ErrInternal},
		{"registry disappears", func(t *testing.T, _ *world, _ map[string]registry.Registration, rw http.ResponseWriter) bool {
			conn, _, err := http.NewResponseController(rw).Hijack()
			if err != nil {
				t.Error(err)
				return false
			}
			_ = conn.Close()
			return true
		}, registry.ErrUnreachable},
		{"toolset withdrawn", func(t *testing.T, w *world, regs map[string]registry.Registration, _ http.ResponseWriter) bool {
			if err := w.client.Withdraw(context.Background(), &registry.WithdrawRequest{Toolset: "billing", Token: regs["billing"].Token}); err != nil {
				t.Error(err)
			}
			return false
		}, registry.ErrToolsetNotFound},
		{"toolset version replaced", func(t *testing.T, w *world, _ map[string]registry.Registration, _ http.ResponseWriter) bool {
			w.publish(t, "billing", "2.0.0", "b2")
			return false
		}, registry.ErrVersionMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			regs := map[string]registry.Registration{
				"records": w.publish(t, "records", "1.0.0", "r1"),
				"billing": w.publish(t, "billing", "1.0.0", "b1"),
			}
			var reads atomic.Int64
			intercept := func(rw http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path != registry.PathResolve || reads.Add(1) != 2 {
					return false
				}
				return tc.second(t, w, regs, rw)
			}
			w.intercept.Store(&intercept)
			steps := &scriptedSteps{}
			agent := w.agent(t, "reader", steps,
				runtime.RegistrySource{Registry: "company", Toolset: "records"},
				runtime.RegistrySource{Registry: "company", Toolset: "billing", Version: "1.0.0"})
			out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")})
			if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, tc.want) {
				t.Fatalf("run error = %v, want runtime.ErrCatalog and %v", err, tc.want)
			}
			if n := reads.Load(); n != 2 {
				t.Fatalf("step read the registry %d times, want 2", n)
			}
			if len(steps.advertised) != 0 || (out != nil && out.Steps != 0) {
				t.Fatalf("a failed resolution still planned: %v", steps.advertised)
			}
		})
	}
}
