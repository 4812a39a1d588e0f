package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime"
)

func newLedger(t *testing.T) *Ledger {
	return &Ledger{path: filepath.Join(t.TempDir(), "ledger.jsonl")}
}

// TestLedgerRecordsOnce records one call's result from many goroutines at
// once, each on its own open file: one result is written and every caller
// gets it back.
func TestLedgerRecordsOnce(t *testing.T) {
	l := newLedger(t)
	id := CallIdentity{Run: "r", Step: 2, CallID: "c3"}
	const n = 8
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := l.Record(id, "books.reconcile", json.RawMessage(fmt.Sprintf(`{"by":%d}`, i)))
			if err != nil {
				t.Error(err)
			}
			got[i] = string(r)
		}()
	}
	wg.Wait()
	entries, err := l.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Kind != kindResult {
		t.Fatalf("entries %+v, want one result", entries)
	}
	for i, r := range got {
		if r != string(entries[0].Result) {
			t.Errorf("caller %d got %s, the ledger recorded %s", i, r, entries[0].Result)
		}
	}
}

// TestExecutorDeduplicates runs a call's attempts the way Temporal retries
// them: one cut off mid-work (its context ends, as when its worker dies),
// one that records the result, and one more that finds it recorded.
func TestExecutorDeduplicates(t *testing.T) {
	l := newLedger(t)
	var log bytes.Buffer
	e := &bookExecutor{ledger: l, reconcile: 200 * time.Millisecond, log: &log}
	inv := &runtime.ToolInvocation{RunID: "walk-1", Step: 2, CallID: "c3", Tool: "books.reconcile", Arguments: json.RawMessage(`{"account":"bank"}`)}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := e.Execute(ctx, inv); err == nil {
		t.Fatal("the cut-off attempt returned no error")
	}
	first, err := e.Execute(context.Background(), inv)
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Execute(context.Background(), inv)
	if err != nil {
		t.Fatal(err)
	}
	if string(first.(json.RawMessage)) != string(again.(json.RawMessage)) {
		t.Errorf("the third attempt returned %s, the second %s", again, first)
	}
	entries, err := l.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, en := range entries {
		kinds = append(kinds, en.Kind)
	}
	if got := strings.Join(kinds, " "); got != "attempt attempt result attempt" {
		t.Errorf("ledger %q, want attempt attempt result attempt", got)
	}
	if !strings.Contains(log.String(), "books.reconcile walk-1/2/c3 attempt 0: the result is recorded already") {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestLedgerRefusesBadLines reads ledgers with a line that is not an
// entry: an error names the line.
func TestLedgerRefusesBadLines(t *testing.T) {
	good := `{"kind":"attempt","call":{"run":"r","step":1,"call_id":"c1"},"tool":"books.balance","attempt":1,"pid":7}`
	for _, tc := range []struct{ name, text, want string }{
		{"not JSON", good + "\nnot json\n", "line 2: invalid character"},
		{"unknown field", `{"kind":"attempt","extra":1}` + "\n", `line 1: json: unknown field "extra"`},
		{"unknown kind", `{"kind":"guess"}` + "\n", `line 1: kind "guess"`},
		{"two entries on a line", good + good + "\n", "line 1: more than one entry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLedger(t)
			if err := os.WriteFile(l.path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := l.Entries()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Entries: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// FuzzLedgerEntries reads arbitrary ledgers: every line read back is an
// entry of a known kind, or the read fails.
func FuzzLedgerEntries(f *testing.F) {
	f.Add([]byte(`{"kind":"result","call":{"run":"r","step":1,"call_id":"c1"},"tool":"t","pid":1,"result":{"a":1}}` + "\n"))
	f.Add([]byte("{}\n{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &Ledger{path: filepath.Join(t.TempDir(), "ledger.jsonl")}
		if err := os.WriteFile(l.path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		entries, err := l.Entries()
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Kind != kindAttempt && e.Kind != kindResult {
				t.Fatalf("entry of kind %q read", e.Kind)
			}
		}
	})
}
