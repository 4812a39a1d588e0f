package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
)

// generationRegistry is a RegistryClient test double over a memoryRegistry
// that reports a generation with every read and runs after, when set,
// after each read.
type generationRegistry struct {
	*memoryRegistry
	generation uint64
	reads      int
	after      func(g *generationRegistry)
}

func (g *generationRegistry) ResolveToolset(ctx context.Context, name string) (*runtime.ResolvedToolset, error) {
	ts, err := g.memoryRegistry.ResolveToolset(ctx, name)
	if err != nil {
		return nil, err
	}
	ts.Generation = g.generation
	g.read()
	return ts, nil
}

func (g *generationRegistry) read() {
	g.reads++
	if g.after != nil {
		g.after(g)
	}
}

// batchRegistry is a generationRegistry test double that also resolves
// named toolsets in one read.
type batchRegistry struct{ *generationRegistry }

func (b batchRegistry) ResolveToolsets(ctx context.Context, refs []runtime.ToolsetRef) ([]runtime.ResolvedToolset, error) {
	out := make([]runtime.ResolvedToolset, len(refs))
	for i, r := range refs {
		ts, err := b.memoryRegistry.ResolveToolset(ctx, r.Name)
		if err != nil {
			return nil, err
		}
		ts.Generation = b.generation
		out[i] = *ts
	}
	b.read()
	return out, nil
}

// TestRegistryChangeDuringResolution withdraws the toolset a step read
// first, right after that read. A client reading one source at a time sees
// the registry's generation change and fails the step; a ToolsetsResolver
// reads both sources at once, so the step is consistent.
func TestRegistryChangeDuringResolution(t *testing.T) {
	withdraw := func(g *generationRegistry) {
		if g.reads == 1 {
			g.mu.Lock()
			delete(g.toolsets, "billing")
			g.mu.Unlock()
			g.generation++
		}
	}
	sources := []runtime.RegistrySource{{Registry: "company", Toolset: "billing"}, {Registry: "company", Toolset: "crm"}}
	tests := []struct {
		name      string
		client    func(*generationRegistry) runtime.RegistryClient
		wantReads int
		wantErr   bool
	}{
		{name: "one source at a time", client: func(g *generationRegistry) runtime.RegistryClient { return g }, wantReads: 2, wantErr: true},
		{name: "one read", client: func(g *generationRegistry) runtime.RegistryClient { return batchRegistry{g} }, wantReads: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &generationRegistry{memoryRegistry: newMemoryRegistry(), generation: 7, after: withdraw}
			g.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund"}))
			g.publish(t, toolsetSchema(t, "crm", toolDef{name: "note", description: "Add a note"}))
			rt := runtime.New()
			if err := rt.RegisterRegistry("company", tc.client(g)); err != nil {
				t.Fatal(err)
			}
			client := newScriptedClient(final(t, "done"))
			if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "reader", Registries: sources, Planner: plannerFor(client)}); err != nil {
				t.Fatal(err)
			}
			_, err := rt.Client("reader").Run(context.Background(), userSays("go"))
			var changed *runtime.RegistryChangedError
			switch {
			case g.reads != tc.wantReads:
				t.Fatalf("step read the registry %d times, want %d", g.reads, tc.wantReads)
			case tc.wantErr && (!errors.Is(err, runtime.ErrCatalog) || !errors.As(err, &changed) || changed.First != 7 || changed.Then != 8):
				t.Fatalf("run error = %v, want a RegistryChangedError from generation 7 to 8", err)
			case !tc.wantErr && err != nil:
				t.Fatalf("run error = %v, want a step over one consistent read", err)
			}
			if tc.wantErr && len(client.requestTools()) != 0 {
				t.Fatal("the planner saw a catalog of a changed registry")
			}
		})
	}
}

// TestToolsetPinnedToTwoVersions fails a step whose sources pin one toolset
// to two versions, before reading it.
func TestToolsetPinnedToTwoVersions(t *testing.T) {
	g := &generationRegistry{memoryRegistry: newMemoryRegistry()}
	g.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund"}))
	rt := runtime.New()
	if err := rt.RegisterRegistry("company", batchRegistry{g}); err != nil {
		t.Fatal(err)
	}
	sources := []runtime.RegistrySource{{Registry: "company", Toolset: "billing", Version: "1"}, {Registry: "company", Toolset: "billing", Version: "2"}}
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "reader", Registries: sources, Planner: plannerFor(newScriptedClient(final(t, "unreached")))}); err != nil {
		t.Fatal(err)
	}
	_, err := rt.Client("reader").Run(context.Background(), userSays("go"))
	if !errors.Is(err, runtime.ErrCatalog) || !strings.Contains(err.Error(), `pinned to version "1" and to version "2"`) || g.reads != 0 {
		t.Fatalf("run error = %v after %d reads, want a catalog error before any read", err, g.reads)
	}
}

func (g *generationRegistry) ListToolsets(ctx context.Context) ([]runtime.ResolvedToolset, error) {
	list, err := g.memoryRegistry.ListToolsets(ctx)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].Generation = g.generation
	}
	g.read()
	return list, nil
}

// TestNamedSourceOfAListedRegistry takes a named source of a registry the
// step also lists from that list: one read, and a toolset the list lacks
// fails the step.
func TestNamedSourceOfAListedRegistry(t *testing.T) {
	g := &generationRegistry{memoryRegistry: newMemoryRegistry(), generation: 3}
	g.publish(t, toolsetSchema(t, "billing", toolDef{name: "refund", description: "Refund"}))
	rt := runtime.New()
	if err := rt.RegisterRegistry("company", batchRegistry{g}); err != nil {
		t.Fatal(err)
	}
	sources := []runtime.RegistrySource{{Registry: "company", Deferred: true}, {Registry: "company", Toolset: "ops"}}
	if err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "reader", Registries: sources, Planner: plannerFor(newScriptedClient(final(t, "unreached")))}); err != nil {
		t.Fatal(err)
	}
	_, err := rt.Client("reader").Run(context.Background(), userSays("go"))
	if !errors.Is(err, runtime.ErrCatalog) || !strings.Contains(err.Error(), `toolset "ops" not found`) || g.reads != 1 {
		t.Fatalf("run error = %v after %d reads, want one read and the missing toolset reported", err, g.reads)
	}
}
