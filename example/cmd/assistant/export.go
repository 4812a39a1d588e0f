// Writing the recorded run to a file, for goa-discovery report.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/goa-discovery/goa-discovery/runtime"
)

// exportRun writes the run the runtime recorded as id to path: one
// runtime.RunState as JSON, the record goa-discovery report reads and
// Runtime.ImportRun takes back.
func exportRun(ctx context.Context, rt *runtime.Runtime, id, path string) error {
	state, err := rt.LoadRun(ctx, id)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	data, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("export run %q: %w", id, err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
