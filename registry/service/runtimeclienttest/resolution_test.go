package runtimeclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
)

// oneAtATime is a RegistryClient test double: it reads through a
// runtimeclient.Client but, lacking ResolveToolsets, makes the runtime
// resolve each named source in its own read.
type oneAtATime struct{ c *runtimeclient.Client }

func (o oneAtATime) ResolveToolset(ctx context.Context, name string) (*runtime.ResolvedToolset, error) {
	return o.c.ResolveToolset(ctx, name)
}

func (o oneAtATime) ResolveToolsetVersion(ctx context.Context, name, version string) (*runtime.ResolvedToolset, error) {
	return o.c.ResolveToolsetVersion(ctx, name, version)
}

func (o oneAtATime) ListToolsets(ctx context.Context) ([]runtime.ResolvedToolset, error) {
	return o.c.ListToolsets(ctx)
}

func (o oneAtATime) CallTool(ctx context.Context, call *runtime.RegistryCall) (json.RawMessage, error) {
	return o.c.CallTool(ctx, call)
}

// TestFailuresMidResolution fails a step whose registry fails, disappears,
// loses a toolset or changes after the step read its first source and
// before it read its second, with a client that reads sources one at a
// time: the step fails explicitly, and the planner never sees a partial or
// inconsistent catalog.
func TestFailuresMidResolution(t *testing.T) {
	cases := []struct {
		name string
		// second answers the step's second read, or lets it through.
		second func(t *testing.T, w *world, regs map[string]registry.Registration, rw http.ResponseWriter) bool
		want   error
	}{
		{"toolset read first withdrawn", func(t *testing.T, w *world, regs map[string]registry.Registration, _ http.ResponseWriter) bool {
			if err := w.client.Withdraw(context.Background(), &registry.WithdrawRequest{Toolset: "records", Token: regs["records"].Token}); err != nil {
				t.Error(err)
			}
			return false
		}, &runtime.RegistryChangedError{}},
		{"toolset read first replaced", func(t *testing.T, w *world, _ map[string]registry.Registration, _ http.ResponseWriter) bool {
			w.publish(t, "records", "1.0.0", "r2")
			return false
		}, &runtime.RegistryChangedError{}},
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
			if err := w.rt.RegisterRegistry("sequential", oneAtATime{runtimeclient.New(w.client)}); err != nil {
				t.Fatal(err)
			}
			steps := &scriptedSteps{}
			agent := w.agent(t, "reader", steps,
				runtime.RegistrySource{Registry: "sequential", Toolset: "records"},
				runtime.RegistrySource{Registry: "sequential", Toolset: "billing", Version: "1.0.0"})
			out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")})
			if changed, ok := tc.want.(*runtime.RegistryChangedError); ok {
				if !errors.Is(err, runtime.ErrCatalog) || !errors.As(err, &changed) || changed.Registry != "sequential" || changed.First >= changed.Then {
					t.Fatalf("run error = %v, want a *runtime.RegistryChangedError of registry \"sequential\" matching runtime.ErrCatalog", err)
				}
			} else if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, tc.want) {
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

// TestStepReadsNamedSourcesInOneRead resolves a step's named toolsets of one
// registry in a single read, so no withdrawal can fall between them; a
// toolset withdrawn while step 1 plans fails step 2 explicitly.
func TestStepReadsNamedSourcesInOneRead(t *testing.T) {
	w := newWorld(t)
	regs := map[string]registry.Registration{
		"records": w.publish(t, "records", "1.0.0", "r1"),
		"billing": w.publish(t, "billing", "1.0.0", "b1"),
	}
	var reads atomic.Int64
	intercept := func(_ http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == registry.PathResolve {
			reads.Add(1)
		}
		return false
	}
	w.intercept.Store(&intercept)
	withdraw := func() {
		if err := w.client.Withdraw(context.Background(), &registry.WithdrawRequest{Toolset: "records", Token: regs["records"].Token}); err != nil {
			t.Error(err)
		}
	}
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{callLookup(t, "billing", "b1", withdraw)}}
	agent := w.agent(t, "reader", steps,
		runtime.RegistrySource{Registry: "company", Toolset: "records"},
		runtime.RegistrySource{Registry: "company", Toolset: "billing", Version: "1.0.0"})
	_, err := agent.Run(context.Background(), []model.Message{model.UserMessage("go")})
	if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, registry.ErrToolsetNotFound) {
		t.Fatalf("run error = %v, want runtime.ErrCatalog and %v", err, registry.ErrToolsetNotFound)
	}
	if n := reads.Load(); n != 2 {
		t.Fatalf("two steps read the registry %d times, want once each", n)
	}
	if len(steps.advertised) != 1 || len(steps.advertised[0]) != 2 {
		t.Fatalf("advertised %v, want step 1 to offer both toolsets and step 2 never to plan", steps.advertised)
	}
}
