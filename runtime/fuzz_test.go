package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime"
)

// FuzzImportRun feeds stored run states, as JSON from outside the process,
// to ImportRun: no input panics, and an accepted state loads back equal and
// can be continued.
func FuzzImportRun(f *testing.F) {
	f.Add([]byte(`{"id":"r","agent":"assistant","messages":[{"role":"user","parts":[{"kind":"text","text":"hi"}]}],"status":"stopped"}`))
	f.Add([]byte(`{"id":"r","agent":"assistant","messages":[{"role":"user","parts":[{"kind":"text","text":"hi"}]},{"role":"assistant","parts":[{"kind":"discovery_call","discovery_call":{"id":"d","names":["records_analyze"]}}]},{"role":"discovery","parts":[{"kind":"discovery_result","discovery_result":{"call_id":"d","tools":[{"name":"records_analyze","description":"x","parameters":{"type":"object"}}]}}]}],"status":"stopped"}`))
	f.Add([]byte(`{"id":"r","agent":"assistant","messages":[{"role":"assistant","parts":[{"kind":"tool_call","tool_call":{"id":"c","name":"x","arguments":{}}}]}]}`))
	f.Add([]byte(`{"id":"r","agent":"assistant","parent_id":"p","messages":[{"role":"user","parts":[{"kind":"text","text":"hi"}]}],"status":"stopped"}`))
	f.Add([]byte(`{"id":"r","agent":"assistant","parent_id":"r","messages":[{"role":"user","parts":[{"kind":"text","text":"hi"}]}],"status":"failed","error":"x"}`))
	f.Add([]byte(`{"id":"","agent":""}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var state runtime.RunState
		if err := json.Unmarshal(data, &state); err != nil {
			return
		}
		rt, _ := newRecordsRuntime(t, newScriptedClient(final(t, "done")), nil)
		if err := rt.ImportRun(context.Background(), &state); err != nil {
			return
		}
		got, err := rt.LoadRun(context.Background(), state.ID)
		if err != nil {
			t.Fatalf("imported run does not load: %v", err)
		}
		if diff := cmp.Diff(state.Messages, got.Messages); diff != "" {
			t.Fatalf("imported history changed (-given +loaded):\n%s", diff)
		}
		if state.Agent != "assistant" {
			return
		}
		out, err := rt.Client("assistant").Continue(context.Background(), state.ID, userSays("go on"))
		if err != nil {
			t.Fatalf("imported run does not continue: %v", err)
		}
		if out.Final.Text() != "done" {
			t.Fatalf("continued run answered %q", out.Final.Text())
		}
	})
}
