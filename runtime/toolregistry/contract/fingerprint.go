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
//
// Besides each tool's own checks, the record must hold together: every
// pagination partner names a tool of the same toolset, since the partner
// travels with its tool and a consumer could not use a tool whose partner
// it cannot find. Errors match tools.ErrInvalidSchema.
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
	if err := checkPartners(ts); err != nil {
		return "", err
	}
	return tools.ToolsetFingerprint(ts)
}

// checkPartners reports a pagination partner that is not a tool of the
// toolset.
func checkPartners(ts *tools.ToolsetSchema) error {
	names := make(map[tools.Ident]bool, len(ts.Tools))
	for i := range ts.Tools {
		names[ts.Tools[i].Name] = true
	}
	for i := range ts.Tools {
		t := &ts.Tools[i]
		if t.Contract == nil || t.Contract.PaginationPartner == "" {
			continue
		}
		if p := t.Contract.PaginationPartner; !names[p] {
			return fmt.Errorf("%w: toolset %q: tool %q names pagination partner %q, which the toolset does not have", tools.ErrInvalidSchema, ts.Name, t.Name, p)
		}
	}
	return nil
}
