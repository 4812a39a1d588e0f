package embeddedstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

var attemptEpoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// openAttemptStore opens the embedded store in dir ("": in memory) with the
// registration of toolset "a" under token t1.
func openAttemptStore(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if _, _, err := st.Registrations(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st.regs["a"].Token == "" {
		reg := &registry.Registration{Token: "t1"}
		reg.Toolset.Name = "a"
		if _, err := st.PutRegistration(context.Background(), reg, ""); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// lapse makes the current claim of callID lapse, as its expiry does.
func (s *Store) lapse(callID string) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	c.until = time.Now().Add(-time.Second)
}

// TestHandOverOutlivesTheStore: what a persisted store holds of a call's
// attempt after it is opened again, journal compactions or not. A
// hand-over without a result is lost (never sent again) whatever ended
// the store's claim; a returned one and one never made leave the call
// free to send; a result ends it.
func TestHandOverOutlivesTheStore(t *testing.T) {
	ctx := context.Background()
	res := &registry.CallResult{CallID: "c", Result: []byte(`{}`), CompletedAt: attemptEpoch}
	cases := []struct {
		name string
		// steps runs on the store before it is closed, the call c admitted
		// and handed over in one step under fence, unless admitOnly.
		admitOnly bool
		steps     func(st *Store, fence uint64) error
		want      store.AttemptState
	}{
		{"admitted only", true, nil, store.AttemptFree},
		{"handed over, store closed while the provider runs it", false, nil, store.AttemptLost},
		{"handed over, claim released (no answer)", false, func(st *Store, fence uint64) error {
			return st.Release(ctx, "c", fence)
		}, store.AttemptLost},
		{"handed over, the provider answered a failure", false, func(st *Store, fence uint64) error {
			return st.Return(ctx, "c", fence)
		}, store.AttemptFree},
		{"handed over, result recorded", false, func(st *Store, fence uint64) error {
			_, err := st.CompleteHandedOver(ctx, "c", fence, res)
			return err
		}, store.AttemptDone},
		{"handed over, held result recorded", false, func(st *Store, fence uint64) error {
			if err := st.Release(ctx, "c", fence); err != nil {
				return err
			}
			_, err := st.Complete(ctx, "c", res)
			return err
		}, store.AttemptDone},
	}
	for _, tc := range cases {
		for _, compacted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/compacted=%v", tc.name, compacted), func(t *testing.T) {
				dir := t.TempDir()
				st := openAttemptStore(t, dir)
				rec := &store.CallRecord{CallID: "c", Tool: "a.get", Token: "t1", AdmittedAt: attemptEpoch}
				var fence uint64
				if tc.admitOnly {
					if _, _, err := st.Admit(ctx, rec); err != nil {
						t.Fatal(err)
					}
				} else {
					_, isNew, f, err := st.AdmitAndHandOver(ctx, rec, "node", time.Minute)
					if err != nil || !isNew || f == 0 {
						t.Fatalf("AdmitAndHandOver = %v, %d, %v", isNew, f, err)
					}
					fence = f
				}
				if tc.steps != nil {
					if err := tc.steps(st, fence); err != nil {
						t.Fatal(err)
					}
				}
				// Another call, admitted and completed, leaves a frame that
				// a compaction drops.
				if _, _, err := st.Admit(ctx, &store.CallRecord{CallID: "other", Tool: "a.get", Token: "t1", AdmittedAt: attemptEpoch}); err != nil {
					t.Fatal(err)
				}
				if _, err := st.Complete(ctx, "other", &registry.CallResult{CallID: "other", CompletedAt: attemptEpoch}); err != nil {
					t.Fatal(err)
				}
				if compacted {
					j := st.disk.calls
					before := j.size
					j.compact()
					if j.size >= before || j.size != j.liveBytes {
						t.Fatalf("compaction: %d bytes, then %d, %d live", before, j.size, j.liveBytes)
					}
				}
				st.Close()
				again := openAttemptStore(t, dir)
				if got, err := again.Attempt(ctx, "c"); err != nil || got != tc.want {
					t.Fatalf("after reopening: attempt %v, %v; want %v", got, err, tc.want)
				}
				f, state, err := again.Claim(ctx, "c", "node", time.Minute)
				switch {
				case err != nil:
					t.Fatal(err)
				case tc.want == store.AttemptFree && f <= fence:
					t.Fatalf("claim after reopening: fence %d, want one above %d", f, fence)
				case tc.want != store.AttemptFree && (f != 0 || state != tc.want):
					t.Fatalf("claim after reopening: fence %d, state %v; want none, %v", f, state, tc.want)
				}
			})
		}
	}
}
