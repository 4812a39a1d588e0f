package embeddedstore

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service/attempttest"
)

// The embedded store fences attempts by the rules the Redis store follows,
// in memory and persisted.
func TestEmbeddedAttemptFencing(t *testing.T) {
	for _, tc := range []struct {
		name      string
		persisted bool
	}{{"in memory", false}, {"persisted", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := ""
			if tc.persisted {
				dir = t.TempDir()
			}
			st := openAttemptStore(t, dir)
			attempttest.Fencing(t, st, st.lapse)
		})
	}
}
