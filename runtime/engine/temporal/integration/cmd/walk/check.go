package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/goa-discovery/goa-discovery/runtime"
)

// check compares a run's recorded calls with the ledger and returns a
// report, a line per call, and an error naming every call that breaks
// "every call once": the run must have completed; each of its calls has
// exactly one result and at least one attempt, and the ledger has nothing
// for a call the run did not record. With killed, the run has one call of
// that tool, attempted twice (attempts 1 and 2, on two workers) and
// recorded by the second; every other call was attempted once.
func check(state *runtime.RunState, entries []Entry, killed string) (string, error) {
	type tally struct {
		tool     string
		attempts []Entry
		results  []Entry
	}
	calls := map[CallIdentity]*tally{}
	var order []CallIdentity
	for _, c := range state.Calls {
		id := CallIdentity{Run: state.ID, Step: c.Step, CallID: c.CallID}
		calls[id] = &tally{tool: string(c.Tool)}
		order = append(order, id)
	}
	var problems []string
	for _, e := range entries {
		if e.Call.Run != state.ID {
			continue
		}
		t, ok := calls[e.Call]
		if !ok {
			problems = append(problems, fmt.Sprintf("the ledger has an %s of %s %s, a call the run did not record", e.Kind, e.Tool, e.Call))
			continue
		}
		if e.Kind == kindAttempt {
			t.attempts = append(t.attempts, e)
		} else {
			t.results = append(t.results, e)
		}
	}
	if state.Status != runtime.RunStopped || state.Stop != runtime.StopCompleted {
		problems = append(problems, fmt.Sprintf("run %s is %s (stop %q), not completed", state.ID, state.Status, state.Stop))
	}

	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "call\ttool\tattempts\tresults\tworkers")
	killedCalls, attempts := 0, 0
	for _, id := range order {
		t := calls[id]
		attempts += len(t.attempts)
		var workers []string
		for _, a := range t.attempts {
			workers = append(workers, fmt.Sprint(a.PID))
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\n", id, t.tool, len(t.attempts), len(t.results), strings.Join(workers, ", "))
		if len(t.results) != 1 {
			problems = append(problems, fmt.Sprintf("call %s (%s) has %d results, want 1", id, t.tool, len(t.results)))
		}
		switch {
		case len(t.attempts) == 0:
			problems = append(problems, fmt.Sprintf("call %s (%s) has no attempt", id, t.tool))
		case killed == "":
		case t.tool == killed:
			killedCalls++
			if p := killedProblem(t.attempts, t.results); p != "" {
				problems = append(problems, fmt.Sprintf("call %s (%s), killed mid-execution: %s", id, t.tool, p))
			}
		case len(t.attempts) != 1:
			problems = append(problems, fmt.Sprintf("call %s (%s) has %d attempts, want 1: only the killed call runs again", id, t.tool, len(t.attempts)))
		}
	}
	w.Flush()
	if killed != "" && killedCalls != 1 {
		problems = append(problems, fmt.Sprintf("the run has %d calls of %s, want 1", killedCalls, killed))
	}
	if len(problems) > 0 {
		return b.String(), errors.New("check: " + strings.Join(problems, "; "))
	}
	fmt.Fprintf(&b, "run %s completed: %d calls, %d attempts, one result per call\n", state.ID, len(order), attempts)
	return b.String(), nil
}

// killedProblem says what is wrong with a killed call's attempts and
// results, or "" when it ran twice, on two workers, and the second
// recorded its result.
func killedProblem(attempts, results []Entry) string {
	switch {
	case len(attempts) != 2:
		return fmt.Sprintf("%d attempts, want 2 (the killed one and its retry)", len(attempts))
	case attempts[0].Attempt != 1 || attempts[1].Attempt != 2:
		return fmt.Sprintf("attempts numbered %d and %d, want 1 and 2", attempts[0].Attempt, attempts[1].Attempt)
	case attempts[0].PID == attempts[1].PID:
		return fmt.Sprintf("both attempts on worker %d, want two workers", attempts[0].PID)
	case len(results) == 1 && results[0].PID != attempts[1].PID:
		return fmt.Sprintf("result recorded by worker %d, want the retry's worker %d", results[0].PID, attempts[1].PID)
	}
	return ""
}
