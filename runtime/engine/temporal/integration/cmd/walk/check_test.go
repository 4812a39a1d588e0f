package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// walkRun is a completed run of the walk's four calls.
func walkRun() *runtime.RunState {
	s := &runtime.RunState{ID: "walk-1", Status: runtime.RunStopped, Stop: runtime.StopCompleted}
	for _, c := range []struct {
		step int
		id   string
		tool string
	}{{1, "c1", "books.balance"}, {1, "c2", "books.balance"}, {2, "c3", "books.reconcile"}, {3, "c4", "books.post"}} {
		s.Calls = append(s.Calls, runtime.CallRecord{Step: c.step, CallID: c.id, Tool: tools.Ident(c.tool)})
	}
	return s
}

func attempt(step int, id, tool string, n int32, pid int) Entry {
	return Entry{Kind: kindAttempt, Call: CallIdentity{"walk-1", step, id}, Tool: tool, Attempt: n, PID: pid}
}

func result(step int, id, tool string, pid int) Entry {
	return Entry{Kind: kindResult, Call: CallIdentity{"walk-1", step, id}, Tool: tool, PID: pid, Result: []byte(`{}`)}
}

// walkLedger is the ledger of the walk: worker 10 killed during c3,
// worker 20 retrying it.
func walkLedger() []Entry {
	return []Entry{
		attempt(1, "c1", "books.balance", 1, 10), result(1, "c1", "books.balance", 10),
		attempt(1, "c2", "books.balance", 1, 10), result(1, "c2", "books.balance", 10),
		attempt(2, "c3", "books.reconcile", 1, 10),
		attempt(2, "c3", "books.reconcile", 2, 20), result(2, "c3", "books.reconcile", 20),
		attempt(3, "c4", "books.post", 1, 20), result(3, "c4", "books.post", 20),
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		state  func(*runtime.RunState)
		ledger func([]Entry) []Entry
		killed string
		want   string // in the error; "" for none
	}{
		{name: "the walk", killed: "books.reconcile"},
		{name: "the walk without --killed"},
		{name: "another run's entries are not the run's", killed: "books.reconcile", ledger: func(l []Entry) []Entry {
			e := result(1, "c1", "books.balance", 30)
			e.Call.Run = "walk-0"
			return append(l, e)
		}},
		{name: "a result recorded twice", ledger: func(l []Entry) []Entry { return append(l, result(3, "c4", "books.post", 20)) },
			want: "call walk-1/3/c4 (books.post) has 2 results, want 1"},
		{name: "a call without result", ledger: func(l []Entry) []Entry { return l[:len(l)-1] },
			want: "call walk-1/3/c4 (books.post) has 0 results, want 1"},
		{name: "a call without attempt", ledger: func(l []Entry) []Entry { return append(l[:7:7], l[8]) },
			want: "call walk-1/3/c4 (books.post) has no attempt"},
		{name: "an entry of a call the run did not record", ledger: func(l []Entry) []Entry { return append(l, attempt(3, "c9", "books.post", 1, 20)) },
			want: "the ledger has an attempt of books.post walk-1/3/c9, a call the run did not record"},
		{name: "a completed call ran again", killed: "books.reconcile", ledger: func(l []Entry) []Entry { return append(l, attempt(1, "c1", "books.balance", 1, 20)) },
			want: "call walk-1/1/c1 (books.balance) has 2 attempts, want 1: only the killed call runs again"},
		{name: "the killed call attempted once", killed: "books.reconcile", ledger: func(l []Entry) []Entry { return append(l[:4:4], l[5:]...) },
			want: "killed mid-execution: 1 attempts, want 2"},
		{name: "the killed call retried on its worker", killed: "books.reconcile", ledger: func(l []Entry) []Entry { l[5].PID = 10; l[6].PID = 10; return l },
			want: "killed mid-execution: both attempts on worker 10"},
		{name: "the killed call recorded by the killed worker", killed: "books.reconcile", ledger: func(l []Entry) []Entry { l[6].PID = 10; return l },
			want: "result recorded by worker 10, want the retry's worker 20"},
		{name: "no call of the killed tool", killed: "books.audit", want: "the run has 0 calls of books.audit, want 1"},
		{name: "a run still running", state: func(s *runtime.RunState) { s.Status, s.Stop = runtime.RunActive, "" },
			want: `run walk-1 is active (stop ""), not completed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, ledger := walkRun(), walkLedger()
			if tc.state != nil {
				tc.state(state)
			}
			if tc.ledger != nil {
				ledger = tc.ledger(ledger)
			}
			report, err := check(state, ledger, tc.killed)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(report, "walk-1/2/c3  books.reconcile  2         1        10, 20\n") ||
					!strings.HasSuffix(report, "run walk-1 completed: 4 calls, 5 attempts, one result per call\n") {
					t.Errorf("report:\n%s", report)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("check: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"serve"}, `unknown command "serve"`},
		{[]string{"worker"}, "worker: --ledger is required"},
		{[]string{"run"}, "run: --id is required"},
		{[]string{"wait", "--ledger", "l"}, "wait: --tool is required"},
		{[]string{"check", "--id", "walk-1"}, "check: --ledger is required"},
		{[]string{"run", "--id", "walk-1", "now"}, `run: unexpected argument "now"`},
		{[]string{"run", "--ledger", "l"}, "flag provided but not defined: -ledger"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut strings.Builder
			err := run(tc.args, &out, &errOut)
			var u usageError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &u) {
				t.Errorf("run: %v, want a usage error with %q", err, tc.want)
			}
		})
	}
}
