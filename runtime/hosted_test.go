package runtime_test

import (
	"context"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestHostedSearchInTheAnswer checks that an answer holding a search its
// provider ran and answered (a hosted discovery call) ends the run in that
// step, with the discovery recorded, instead of planning once more.
func TestHostedSearchInTheAnswer(t *testing.T) {
	hosted := model.DiscoveryCallPart(model.DiscoveryCall{ID: "h1", Names: []string{"records_analyze"}, Hosted: true})
	client := newScriptedClient(respond(t, hosted, model.TextPart("Revenue is up.")))
	rt, _ := newRecordsRuntime(t, client, nil)
	out, err := rt.Client("assistant").Run(context.Background(), userSays("How is revenue?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != runtime.StopCompleted || out.Steps != 1 {
		t.Fatalf("stop %q after %d steps, want completed after 1", out.Stop, out.Steps)
	}
	if out.Final.Text() != "Revenue is up." {
		t.Errorf("final %q", out.Final.Text())
	}
	found := discoveryResults(out.Messages)["h1"]
	if names := snapshotNames(found); len(names) != 1 || names[0] != "records_analyze" {
		t.Errorf("recorded discovery %v, want records_analyze", names)
	}
}
