package runtimeclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
)

// clusterNode is a registry node on a shared Redis, served on loopback,
// counting the resolutions it answers.
type clusterNode struct {
	server *httptest.Server
	reads  atomic.Int64
}

func newClusterNode(t *testing.T, rdb *redis.Client) *clusterNode {
	t.Helper()
	st, err := redisstore.New(rdb, "company")
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.WithLoopbackEndpoints(), service.WithStore(st), service.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{}
	h := svc.Handler()
	n.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == registry.PathResolve {
			n.reads.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { n.server.Close(); _ = svc.Close() })
	return n
}

// A runtime given two nodes of one registry goes on when the node it used
// goes down between steps: the next step reads through the other node, once,
// and calls through it.
func TestStepsFailOverToAnotherNode(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	a, b := newClusterNode(t, rdb), newClusterNode(t, rdb)
	var executions atomic.Int64
	provider := newProviderServer(t, registry.ExecutorFunc(func(context.Context, *registry.CallRequest) (json.RawMessage, error) {
		executions.Add(1)
		return json.RawMessage(`{"name":"found"}`), nil
	}))
	client, err := registry.NewClient(a.server.URL, registry.WithFailover(b.server.URL))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"records", "billing"} {
		if _, err := client.Publish(context.Background(), &registry.PublishRequest{Toolset: lookupToolset(name), Revision: "r1", Endpoint: provider}); err != nil {
			t.Fatal(err)
		}
	}
	rt := runtime.New()
	if err := rt.RegisterRegistry("company", runtimeclient.New(client)); err != nil {
		t.Fatal(err)
	}
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{
		callLookup(t, "records", "1", nil),
		callLookup(t, "billing", "2", a.server.Close),
	}}
	err = rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: "reader", Description: "reader", Planner: steps, Registries: []runtime.RegistrySource{
		{Registry: "company", Toolset: "records"}, {Registry: "company", Toolset: "billing"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Client("reader").Run(context.Background(), []model.Message{model.UserMessage("go")}); err != nil {
		t.Fatal(err)
	}
	// Steps 1 and 2 read through a, step 3 through b: one read a step.
	if ra, rb := a.reads.Load(), b.reads.Load(); ra != 2 || rb != 1 {
		t.Fatalf("resolutions through a and b: %d and %d, want 2 and 1", ra, rb)
	}
	if n := executions.Load(); n != 2 {
		t.Fatalf("provider ran %d calls, want 2", n)
	}
	if got := client.Nodes()[0]; got != b.server.URL {
		t.Fatalf("client sends to %s first, want the node that answered last, %s", got, b.server.URL)
	}
}
