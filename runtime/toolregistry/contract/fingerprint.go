package contract

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Fingerprint validates a toolset record and fingerprints it with
// tools.ToolsetFingerprint: name, title, description, tags, version and tool
// schemas are covered, the registration time is not. It applies equally to
// a runtime-authored declaration and to a generated Toolset() value, so a
// provider that publishes either gets the fingerprint the registry computes.
// A generated package's SchemaFingerprint(name) differs: it describes the
// registration without toolset-level annotations.
func Fingerprint(ts *tools.ToolsetSchema) (tools.Fingerprint, error) {
	if ts == nil {
		return "", fmt.Errorf("%w: nil toolset schema", tools.ErrInvalidSchema)
	}
	if err := ts.Validate(); err != nil {
		return "", err
	}
	for i := range ts.Tools {
		if _, err := ModelSchema(&ts.Tools[i]); err != nil {
			return "", fmt.Errorf("toolset %q: %w", ts.Name, err)
		}
	}
	return tools.ToolsetFingerprint(ts)
}
