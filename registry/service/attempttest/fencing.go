package attempttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Fencing runs the fencing of attempts on st, step by step: a claim's fence
// only grows; a lapsed claim can neither hand the call over nor record its
// result; a call handed over is claimed by no one until its hand-over ends,
// and one whose claim lapsed meanwhile is lost; a second recording of a
// result gets the first.
//
// st must hold the registration of toolset "a" under token "t1" and no
// call "c" or "d". lapse makes the current claim of a call lapse, as its
// expiry does.
func Fencing(t *testing.T, st store.Store, lapse func(callID string)) {
	t.Helper()
	ctx := context.Background()
	epoch := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, id := range []string{"c", "d"} {
		if _, _, err := st.Admit(ctx, &store.CallRecord{CallID: id, Tool: "a.get", Token: "t1", AdmittedAt: epoch}); err != nil {
			t.Fatal(err)
		}
	}
	result := func(id, text string) *registry.CallResult {
		return &registry.CallResult{CallID: id, ToolError: text, CompletedAt: epoch.Add(time.Minute)}
	}
	fences := map[string]uint64{}
	// claim claims id for owner, or with want other than mine checks that
	// the claim is refused with that state.
	const mine = store.AttemptState(-1)
	claim := func(step, id, owner string, want store.AttemptState) {
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
	state := func(step, id string, want store.AttemptState) {
		t.Helper()
		if got, err := st.Attempt(ctx, id); err != nil || got != want {
			t.Fatalf("%s: state %v, %v; want %v", step, got, err, want)
		}
	}

	// a claims c; b is refused, and claims c once a's claim lapsed.
	claim("a claims", "c", "a", mine)
	claim("b is refused", "c", "b", store.AttemptClaimed)
	state("claimed", "c", store.AttemptClaimed)
	lapse("c")
	state("lapsed before any hand-over", "c", store.AttemptFree)
	claim("b claims", "c", "b", mine)
	// a, whose claim lapsed, can neither renew nor hand over nor record.
	if held, err := st.Renew(ctx, "c", fences["ac"], time.Minute); held || err != nil {
		t.Fatalf("a renews its lapsed claim: %v, %v; want not held", held, err)
	}
	check("a hands over", st.HandOver(ctx, "c", fences["ac"]), store.ErrClaimLost)
	_, err := st.CompleteHandedOver(ctx, "c", fences["ac"], result("c", "a"))
	check("a records a result", err, store.ErrClaimLost)
	check("a releases", st.Release(ctx, "c", fences["ac"]), nil)
	state("a's release leaves b's claim", "c", store.AttemptClaimed)

	// b hands c over; a second hand-over is refused, and so is any claim
	// while b's claim is current.
	check("b hands over", st.HandOver(ctx, "c", fences["bc"]), nil)
	check("b hands over again", st.HandOver(ctx, "c", fences["bc"]), store.ErrClaimLost)
	claim("a is refused", "c", "a", store.AttemptClaimed)
	claim("b is refused while its hand-over is out", "c", "b", store.AttemptClaimed)
	// b's claim lapses while c is out: c is lost, and no one claims it.
	lapse("c")
	state("lapsed after the hand-over", "c", store.AttemptLost)
	claim("a finds it lost", "c", "a", store.AttemptLost)
	claim("b finds it lost", "c", "b", store.AttemptLost)
	// b, the only node that sent it, records its result.
	got, err := st.CompleteHandedOver(ctx, "c", fences["bc"], result("c", "b"))
	if err != nil || got == nil || got.ToolError != "b" {
		t.Fatalf("b records the result = %+v, %v; want b's", got, err)
	}
	state("recorded", "c", store.AttemptDone)
	// A second recording, its answer lost the first time, gets the result
	// recorded first, not its own.
	again, err := st.CompleteHandedOver(ctx, "c", fences["bc"], result("c", "b again"))
	if err != nil || again == nil || again.ToolError != "b" {
		t.Fatalf("b records a result again = %+v, %v; want the first, b's", again, err)
	}
	claim("claim after the result", "c", "a", store.AttemptDone)

	// d is handed over and its provider answers with a failure: the
	// return ends the hand-over, and the call may be claimed again.
	claim("a claims d", "d", "a", mine)
	check("a hands d over", st.HandOver(ctx, "d", fences["ad"]), nil)
	check("b's fence cannot return it", st.Return(ctx, "d", fences["bc"]), nil)
	state("still a's", "d", store.AttemptClaimed)
	check("a returns d", st.Return(ctx, "d", fences["ad"]), nil)
	state("returned", "d", store.AttemptFree)
	claim("b claims d", "d", "b", mine)
	// A release after a hand-over leaves it outstanding: d is lost.
	check("b hands d over", st.HandOver(ctx, "d", fences["bd"]), nil)
	check("b releases d", st.Release(ctx, "d", fences["bd"]), nil)
	state("released after the hand-over", "d", store.AttemptLost)
	_, err = st.CompleteHandedOver(ctx, "d", fences["ad"], result("d", "a"))
	check("a's old fence records d", err, store.ErrClaimLost)
}
