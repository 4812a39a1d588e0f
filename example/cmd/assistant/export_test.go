package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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
