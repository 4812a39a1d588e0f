package service_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// namedToolset is the records toolset renamed.
func namedToolset(name, version string) tools.ToolsetSchema {
	ts := recordsToolset(version)
	ts.Name = name
	for i := range ts.Tools {
		ts.Tools[i].Name = tools.Ident(name + "." + ts.Tools[i].Name.Tool())
	}
	return ts
}

func TestConcurrentPublishesAreDurableAndCounted(t *testing.T) {
	for _, persisted := range []bool{false, true} {
		t.Run(fmt.Sprintf("persisted=%v", persisted), func(t *testing.T) {
			dir := t.TempDir()
			var opts []service.Option
			if persisted {
				opts = append(opts, service.WithDataDir(dir))
			}
			svc, err := service.New(append(opts, service.WithLoopbackEndpoints())...)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			start, err := svc.ListToolsets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// Two publishers per toolset race each other's compare-and-set.
			const toolsets, perToolset, revisions = 4, 2, 10
			var changes atomic.Uint64
			var wg sync.WaitGroup
			for i := range toolsets * perToolset {
				wg.Add(1)
				go func() {
					defer wg.Done()
					name := fmt.Sprintf("ts%d", i%toolsets)
					for r := range revisions {
						res, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: namedToolset(name, "1.0.0"), Revision: fmt.Sprintf("p%d-r%d", i, r), Endpoint: "http://127.0.0.1:1/"})
						if err != nil {
							t.Error(err)
							return
						}
						if res.Status != registry.Unchanged {
							changes.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			before, err := svc.ListToolsets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(before.Toolsets) != toolsets {
				t.Fatalf("%d toolsets registered, want %d", len(before.Toolsets), toolsets)
			}
			if got, want := before.Generation-start.Generation, changes.Load(); got != want {
				t.Fatalf("generation moved by %d over %d changes", got, want)
			}
			if err := svc.Close(); err != nil {
				t.Fatal(err)
			}
			if !persisted {
				return
			}
			again, err := service.New(append(opts, service.WithLoopbackEndpoints())...)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			after, err := again.ListToolsets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before.Toolsets, after.Toolsets); diff != "" {
				t.Fatalf("registrations after restart (-before +after):\n%s", diff)
			}
			if after.Generation <= before.Generation {
				t.Fatalf("generation %d after restart, was %d", after.Generation, before.Generation)
			}
		})
	}
}
