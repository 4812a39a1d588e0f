package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// TestPublishInProcessChecksLimitsFirst: Service.Publish applies the
// schema limits before it validates the toolset, as the HTTP path does
// (registry.OutlinePublish), so that a schema over a limit is refused as
// schema_limit on both paths, without its validation being paid for. On
// the code before, the in-process path canonicalized and decoded every
// schema first: a schema nested past the 1,000 levels that tools.Canonicalize takes, or one over
// the size limit that is not an object schema, was invalid_schema there
// and schema_limit over HTTP.
func TestPublishInProcessChecksLimitsFirst(t *testing.T) {
	untyped := json.RawMessage(`{"description":"` + strings.Repeat("x", 70_000) + `"}`)
	cases := []struct {
		name    string
		payload json.RawMessage
		errPart string
	}{
		{"nested past the canonical form's limit", chainSchema(2_000), "(MaxDepth)"},
		{"over the size, and not an object schema", untyped, "(MaxBytes)"},
		{"the issue's 990-deep schema", chainSchema(990), "(MaxDepth)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			req := &registry.PublishRequest{Toolset: toolsetOf(1, tc.payload), Revision: "r1", Endpoint: "http://127.0.0.1:1/"}
			for path, publish := range map[string]registry.Publisher{"in process": h.svc, "over HTTP": h.client} {
				_, err := publish.Publish(context.Background(), req)
				if !errors.Is(err, registry.ErrSchemaLimit) || !strings.Contains(err.Error(), tc.errPart) {
					t.Errorf("%s: Publish = %v; want schema_limit naming %s", path, err, tc.errPart)
				}
			}
		})
	}
}
