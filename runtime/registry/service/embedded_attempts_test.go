package service

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

var attemptEpoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// openAttemptStore opens the embedded store in dir ("": in memory) with the
// registration of toolset "a" under token t1.
func openAttemptStore(t *testing.T, dir string) *embeddedStore {
	t.Helper()
	st, err := openEmbeddedStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.close)
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
func (s *embeddedStore) lapse(callID string) {
	c := s.lockCall(callID)
	defer s.mu.Unlock()
	c.until = time.Now().Add(-time.Second)
}

// The embedded store's fencing of attempts, step by step, by the rules the
// Redis store follows (redisstore's TestAttemptFencing): a claim's fence
// only grows; a lapsed claim can neither hand the call over nor record its
// result; a call handed over is claimed by no one until its hand-over
// ends, and one whose claim lapsed meanwhile is lost.
func TestEmbeddedAttemptFencing(t *testing.T) {
	for _, dir := range []string{"", "persisted"} {
		t.Run(fmt.Sprintf("dir=%q", dir), func(t *testing.T) {
			if dir != "" {
				dir = t.TempDir()
			}
			ctx := context.Background()
			st := openAttemptStore(t, dir)
			for _, id := range []string{"c", "d"} {
				if _, _, err := st.Admit(ctx, &CallRecord{CallID: id, Tool: "a.get", Token: "t1", AdmittedAt: attemptEpoch}); err != nil {
					t.Fatal(err)
				}
			}
			result := func(id, text string) *registry.CallResult {
				return &registry.CallResult{CallID: id, ToolError: text, CompletedAt: attemptEpoch.Add(time.Minute)}
			}
			fences := map[string]uint64{}
			const mine = AttemptState(-1)
			claim := func(step, id, owner string, want AttemptState) {
				t.Helper()
				fence, state, err := st.Claim(ctx, id, owner, time.Minute)
				switch {
				case err != nil:
					t.Fatalf("%s: %v", step, err)
				case want == mine && fence <= fences["last"]:
					t.Fatalf("%s: fence %d, want one above %d", step, fence, fences["last"])
				case want == mine:
					fences[owner+id], fences["last"] = fence, fence
				case fence != 0 || state != want:
					t.Fatalf("%s: fence %d, state %v; want no claim, state %v", step, fence, state, want)
				}
			}
			check := func(step string, err, want error) {
				t.Helper()
				if !errors.Is(err, want) {
					t.Fatalf("%s: %v, want %v", step, err, want)
				}
			}
			state := func(step, id string, want AttemptState) {
				t.Helper()
				if got, err := st.Attempt(ctx, id); err != nil || got != want {
					t.Fatalf("%s: state %v, %v; want %v", step, got, err, want)
				}
			}

			claim("a claims", "c", "a", mine)
			claim("b is refused", "c", "b", AttemptClaimed)
			state("claimed", "c", AttemptClaimed)
			st.lapse("c")
			state("lapsed before any hand-over", "c", AttemptFree)
			claim("b claims", "c", "b", mine)
			if held, err := st.Renew(ctx, "c", fences["ac"], time.Minute); held || err != nil {
				t.Fatalf("a renews its lapsed claim: %v, %v; want not held", held, err)
			}
			check("a hands over", st.HandOver(ctx, "c", fences["ac"]), ErrClaimLost)
			_, err := st.CompleteHandedOver(ctx, "c", fences["ac"], result("c", "a"))
			check("a records a result", err, ErrClaimLost)
			check("a releases", st.Release(ctx, "c", fences["ac"]), nil)
			state("a's release leaves b's claim", "c", AttemptClaimed)

			check("b hands over", st.HandOver(ctx, "c", fences["bc"]), nil)
			check("b hands over again", st.HandOver(ctx, "c", fences["bc"]), ErrClaimLost)
			claim("a is refused", "c", "a", AttemptClaimed)
			claim("b is refused while its hand-over is out", "c", "b", AttemptClaimed)
			st.lapse("c")
			state("lapsed after the hand-over", "c", AttemptLost)
			claim("a finds it lost", "c", "a", AttemptLost)
			claim("b finds it lost", "c", "b", AttemptLost)
			got, err := st.CompleteHandedOver(ctx, "c", fences["bc"], result("c", "b"))
			if err != nil || got == nil || got.ToolError != "b" {
				t.Fatalf("b records the result = %+v, %v; want b's", got, err)
			}
			state("recorded", "c", AttemptDone)
			claim("claim after the result", "c", "a", AttemptDone)

			claim("a claims d", "d", "a", mine)
			check("a hands d over", st.HandOver(ctx, "d", fences["ad"]), nil)
			check("b's fence cannot return it", st.Return(ctx, "d", fences["bc"]), nil)
			state("still a's", "d", AttemptClaimed)
			check("a returns d", st.Return(ctx, "d", fences["ad"]), nil)
			state("returned", "d", AttemptFree)
			claim("b claims d", "d", "b", mine)
			check("b hands d over", st.HandOver(ctx, "d", fences["bd"]), nil)
			check("b releases d", st.Release(ctx, "d", fences["bd"]), nil)
			state("released after the hand-over", "d", AttemptLost)
			_, err = st.CompleteHandedOver(ctx, "d", fences["ad"], result("d", "a"))
			check("a's old fence records d", err, ErrClaimLost)
		})
	}
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
		steps     func(st *embeddedStore, fence uint64) error
		want      AttemptState
	}{
		{"admitted only", true, nil, AttemptFree},
		{"handed over, store closed while the provider runs it", false, nil, AttemptLost},
		{"handed over, claim released (no answer)", false, func(st *embeddedStore, fence uint64) error {
			return st.Release(ctx, "c", fence)
		}, AttemptLost},
		{"handed over, the provider answered a failure", false, func(st *embeddedStore, fence uint64) error {
			return st.Return(ctx, "c", fence)
		}, AttemptFree},
		{"handed over, result recorded", false, func(st *embeddedStore, fence uint64) error {
			_, err := st.CompleteHandedOver(ctx, "c", fence, res)
			return err
		}, AttemptDone},
		{"handed over, held result recorded", false, func(st *embeddedStore, fence uint64) error {
			if err := st.Release(ctx, "c", fence); err != nil {
				return err
			}
			_, err := st.Complete(ctx, "c", res)
			return err
		}, AttemptDone},
	}
	for _, tc := range cases {
		for _, compacted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/compacted=%v", tc.name, compacted), func(t *testing.T) {
				dir := t.TempDir()
				st := openAttemptStore(t, dir)
				rec := &CallRecord{CallID: "c", Tool: "a.get", Token: "t1", AdmittedAt: attemptEpoch}
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
				if _, _, err := st.Admit(ctx, &CallRecord{CallID: "other", Tool: "a.get", Token: "t1", AdmittedAt: attemptEpoch}); err != nil {
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
				st.close()
				again := openAttemptStore(t, dir)
				if got, err := again.Attempt(ctx, "c"); err != nil || got != tc.want {
					t.Fatalf("after reopening: attempt %v, %v; want %v", got, err, tc.want)
				}
				f, state, err := again.Claim(ctx, "c", "node", time.Minute)
				switch {
				case err != nil:
					t.Fatal(err)
				case tc.want == AttemptFree && f <= fence:
					t.Fatalf("claim after reopening: fence %d, want one above %d", f, fence)
				case tc.want != AttemptFree && (f != 0 || state != tc.want):
					t.Fatalf("claim after reopening: fence %d, state %v; want none, %v", f, state, tc.want)
				}
			})
		}
	}
}
