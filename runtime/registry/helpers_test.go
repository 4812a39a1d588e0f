package registry

import (
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// recordsToolset is a valid toolset record.
func recordsToolset() tools.ToolsetSchema {
	return tools.ToolsetSchema{
		Name:    "records",
		Version: "1.0.0",
		Tools: []tools.ToolSchema{{
			Name:        "records.lookup",
			Description: "Look up a record by id",
			Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
		}},
	}
}

// resolvedRecords is recordsToolset as a registry serves it under revision.
func resolvedRecords(t testing.TB, revision string) ResolvedToolset {
	t.Helper()
	ts := recordsToolset()
	fp, err := tools.ToolsetFingerprint(&ts)
	if err != nil {
		t.Fatal(err)
	}
	return ResolvedToolset{Toolset: ts, Fingerprint: fp, Revision: revision, Token: NewToken(fp, revision)}
}

func toIdent(toolset string, j int) tools.Ident {
	return tools.Ident(toolset + ".tool" + string(rune('a'+j/26)) + string(rune('a'+j%26)))
}

func fingerprintFor(rt *ResolvedToolset) (tools.Fingerprint, error) {
	return tools.ToolsetFingerprint(&rt.Toolset)
}
