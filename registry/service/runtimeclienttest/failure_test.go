package runtimeclient_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

func TestUnreachableRegistryCallKeepsItsURLFromTheModel(t *testing.T) {
	w := newWorld(t)
	w.publish(t, "records", "1.0.0", "r1")
	// The registry drops every call's connection; its reads still work.
	drop := func(rw http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != registry.PathCalls {
			return false
		}
		conn, _, err := rw.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return true
		}
		_ = conn.Close()
		return true
	}
	w.intercept.Store(&drop)
	steps := &scriptedSteps{steps: []func(*runtime.PlanInput) []model.Part{callLookup(t, "records", "r7", nil)}}
	agent := w.agent(t, "reader", steps, runtime.RegistrySource{Registry: "company", Toolset: "records"})
	out, err := agent.Run(context.Background(), []model.Message{model.UserMessage("find r7")})
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(w.registry.URL, "http://")
	res := toolResult(t, out)
	if !res.IsError || strings.Contains(res.Content, host) {
		t.Errorf("the model reads %q; want a failure without the registry's address %s", res.Content, host)
	}
	if len(out.Calls) != 1 {
		t.Fatalf("%d call records, want 1", len(out.Calls))
	}
	if got := out.Calls[0].Error; !strings.Contains(got, host) {
		t.Errorf("the call's record keeps %q, want the whole error", got)
	}
}
