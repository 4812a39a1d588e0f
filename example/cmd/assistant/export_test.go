package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime"
)

func TestExportWritesTheRecordedRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	var stdout, stderr bytes.Buffer
	if code := runCommand(context.Background(), []string{"-export", path}, noEnv, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var state runtime.RunState
	if err := dec.Decode(&state); err != nil {
		t.Fatal(err)
	}
	if state.Agent != "analyst" || state.Status != runtime.RunStopped || state.Stop != runtime.StopCompleted || len(state.Calls) != 4 {
		t.Errorf("exported run: agent %q, status %q, stop %q, %d calls", state.Agent, state.Status, state.Stop, len(state.Calls))
	}
	// The export is a record the runtime takes back.
	if err := runtime.New().ImportRun(context.Background(), &state); err != nil {
		t.Errorf("the exported run does not import: %v", err)
	}
}

// TestExportedRuns checks that testdata/runs holds the runs the quickstart
// exports on each of its recordings (what docs/observability.md's report is
// made from, and what cmd/goa-discovery's report test reads), run ids
// aside: an id is random per run, so the committed one stands for it.
// GOA_DISCOVERY_UPDATE=1 rewrites them.
func TestExportedRuns(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai", "openai-chat"} {
		t.Run(provider, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.json")
			var stdout, stderr bytes.Buffer
			args := []string{"-replay-provider", provider, "-export", path}
			if code := runCommand(context.Background(), args, noEnv, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			committed := filepath.Join("testdata", "runs", provider+".json")
			if want, err := os.ReadFile(committed); err == nil {
				got = bytes.ReplaceAll(got, []byte(runID(t, got)), []byte(runID(t, want)))
			}
			golden.File(t, committed, got)
		})
	}
}

// runID returns the id of the run stored in data.
func runID(t *testing.T, data []byte) string {
	t.Helper()
	var state struct{ ID string }
	if err := json.Unmarshal(data, &state); err != nil || state.ID == "" {
		t.Fatalf("no run id in %.80s: %v", data, err)
	}
	return state.ID
}
