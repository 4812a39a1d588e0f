package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Ledger is the walk's books: a file of JSON lines that every worker
// appends to, under an exclusive lock (flock), one entry per attempt at a
// tool call and one per recorded result. A call is known by its identity,
// the run, step and call id of its runtime.ToolInvocation, which a retried
// call keeps.
type Ledger struct {
	path string
}

// Entry is one line of the ledger.
type Entry struct {
	// Kind is "attempt" or "result".
	Kind string `json:"kind"`
	// Call is the call's identity.
	Call CallIdentity `json:"call"`
	// Tool is the called tool.
	Tool string `json:"tool"`
	// Attempt is Temporal's attempt number of the call's activity.
	Attempt int32 `json:"attempt,omitempty"`
	// PID is the worker process that wrote the entry.
	PID int `json:"pid"`
	// Result is the call's result, on a result entry.
	Result json.RawMessage `json:"result,omitempty"`
}

// Entry kinds.
const (
	kindAttempt = "attempt"
	kindResult  = "result"
)

// CallIdentity identifies a tool call across the retries of its activity.
type CallIdentity struct {
	Run    string `json:"run"`
	Step   int    `json:"step"`
	CallID string `json:"call_id"`
}

func (c CallIdentity) String() string { return fmt.Sprintf("%s/%d/%s", c.Run, c.Step, c.CallID) }

// Attempt records that an attempt at a call starts.
func (l *Ledger) Attempt(call CallIdentity, tool string, attempt int32) error {
	return l.locked(func([]Entry) error {
		return l.append(Entry{Kind: kindAttempt, Call: call, Tool: tool, Attempt: attempt, PID: os.Getpid()})
	})
}

// Result returns the call's recorded result, if it has one.
func (l *Ledger) Result(call CallIdentity) (json.RawMessage, bool, error) {
	var (
		result json.RawMessage
		found  bool
	)
	err := l.locked(func(entries []Entry) error {
		result, found = resultOf(entries, call)
		return nil
	})
	return result, found, err
}

// Record records the call's result unless it has one already, and returns
// the one recorded: under the lock, so of two attempts that finish, one
// records and the other gets its result.
func (l *Ledger) Record(call CallIdentity, tool string, result json.RawMessage) (json.RawMessage, error) {
	recorded := result
	err := l.locked(func(entries []Entry) error {
		if r, ok := resultOf(entries, call); ok {
			recorded = r
			return nil
		}
		return l.append(Entry{Kind: kindResult, Call: call, Tool: tool, PID: os.Getpid(), Result: result})
	})
	return recorded, err
}

// Entries reads the ledger; a ledger not written yet is empty.
func (l *Ledger) Entries() ([]Entry, error) {
	var out []Entry
	err := l.locked(func(entries []Entry) error {
		out = entries
		return nil
	})
	return out, err
}

func resultOf(entries []Entry, call CallIdentity) (json.RawMessage, bool) {
	for _, e := range entries {
		if e.Kind == kindResult && e.Call == call {
			return e.Result, true
		}
	}
	return nil, false
}

// locked runs f with the ledger's entries, holding the ledger's lock.
func (l *Ledger) locked(f func([]Entry) error) error {
	file, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer file.Close()
	if err := syscall.Flock(int(file.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("ledger %s: lock: %w", l.path, err)
	}
	entries, err := readEntries(file)
	if err != nil {
		return fmt.Errorf("ledger %s: %w", l.path, err)
	}
	return f(entries)
}

// readEntries parses the ledger's lines; a line that is not an entry is an
// error, never skipped.
func readEntries(file *os.File) ([]Entry, error) {
	var entries []Entry
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e Entry
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one entry", n)
		}
		if e.Kind != kindAttempt && e.Kind != kindResult {
			return nil, fmt.Errorf("line %d: kind %q", n, e.Kind)
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return entries, nil
}

// append writes one entry as one write to the end of the ledger and syncs
// it; called with the lock held.
func (l *Ledger) append(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("ledger %s: %w", l.path, err)
	}
	return errors.Join(f.Sync(), f.Close())
}
