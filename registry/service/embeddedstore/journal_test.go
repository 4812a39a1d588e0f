package embeddedstore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// liveValues returns the journal's live values as strings.
func liveValues(t *testing.T, path string) map[string]string {
	t.Helper()
	j, values, err := openJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	out := make(map[string]string, len(values))
	for k, v := range values {
		out[k] = string(v)
	}
	return out
}

func TestJournalReplaysPutsAndForgets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := openJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	steps := [][]frame{
		{{key: "a", value: []byte("1")}, {key: "b", value: []byte("2")}},
		{{key: "a", value: []byte("3")}},
		{{key: "b"}},
		{{key: "c", value: []byte("4")}},
	}
	for _, fs := range steps {
		if err := j.commit(fs...); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.close(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "3", "c": "4"}
	if diff := cmp.Diff(want, liveValues(t, path)); diff != "" {
		t.Fatalf("live values (-want +got):\n%s", diff)
	}
}

func TestJournalTornTail(t *testing.T) {
	cases := []struct {
		name    string
		tail    []byte
		wantErr string
	}{
		{"half a frame", encodeFrame(nil, frame{key: "z", value: []byte("lost")})[:9], ""},
		{"a frame with a bad checksum", bytes.Replace(encodeFrame(nil, frame{key: "z", value: []byte("lost")}), []byte("lost"), []byte("LOST"), 1), ""},
		{"zeros", make([]byte, 4096), ""},
		{"more than one batch of garbage", make([]byte, maxBatchBytes+1), "is corrupt at byte"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j")
			good := encodeFrame(nil, frame{key: "a", value: []byte("kept")})
			if err := os.WriteFile(path, append(good, tc.tail...), 0o644); err != nil {
				t.Fatal(err)
			}
			j, values, err := openJournal(path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("open = %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(values["a"]) != "kept" || len(values) != 1 {
				t.Fatalf("values = %q", values)
			}
			// The torn tail is cut off, and later frames follow the last
			// whole one.
			if err := j.commit(frame{key: "b", value: []byte("next")}); err != nil {
				t.Fatal(err)
			}
			if err := j.close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[string]string{"a": "kept", "b": "next"}, liveValues(t, path)); diff != "" {
				t.Fatalf("after a new frame (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJournalGroupsConcurrentCommits: the writers that queued while a
// batch was written are the next batch, all of them, written with one sync
// and each answered once it is durable.
func TestJournalGroupsConcurrentCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := openJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	// Stand for a flusher busy with an earlier batch: writers queue.
	j.mu.Lock()
	j.flushing = true
	j.mu.Unlock()
	var wg sync.WaitGroup
	const queued = 20
	for i := range queued {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := j.commit(frame{key: fmt.Sprint(i), value: []byte("v")}); err != nil {
				t.Error(err)
			}
		}()
	}
	for {
		j.mu.Lock()
		n := len(j.queue)
		j.mu.Unlock()
		if n == queued {
			break
		}
		runtime.Gosched()
	}
	// The flusher's next turn takes every queued writer as one batch.
	j.mu.Lock()
	batch := j.takeBatch()
	took, left := len(batch), len(j.queue)
	j.queue = append(batch, j.queue...)
	j.mu.Unlock()
	j.flush()
	wg.Wait()
	if took != queued || left != 0 {
		t.Fatalf("the next batch took %d writers and left %d, want all %d in one", took, left, queued)
	}
	if n := len(liveValues(t, path)); n != queued {
		t.Fatalf("the journal holds %d keys, want %d", n, queued)
	}
}

func TestJournalCompacts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := openJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	j.compactMin = 4096
	value := bytes.Repeat([]byte("x"), 100)
	for i := range 500 {
		if err := j.commit(frame{key: fmt.Sprint(i % 10), value: append(value, fmt.Sprint(i)...)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// 500 frames of about 115 bytes, 10 live: compacted, the file holds
	// far fewer than all of them.
	if info.Size() > 2*4096+500 {
		t.Fatalf("journal of %d bytes was not compacted", info.Size())
	}
	got := liveValues(t, path)
	for i := range 10 {
		want := string(value) + fmt.Sprint(490+i)
		if got[fmt.Sprint(i)] != want {
			t.Fatalf("key %d = %q after compaction, want %q", i, got[fmt.Sprint(i)], want)
		}
	}
}

func FuzzJournalReplay(f *testing.F) {
	f.Add(encodeFrame(encodeFrame(nil, frame{key: "a", value: []byte("1")}), frame{key: "a"}))
	f.Add([]byte{1, 0, 0, 0, 255, 255, 255, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		j := &journal{path: "fuzz", live: make(map[string][]byte)}
		end, err := j.replay(data)
		if err != nil {
			return
		}
		// What replays re-encodes to the prefix it was read from.
		var again []byte
		for off := 0; off < int(end); {
			n, key, value, ok := decodeFrame(data[off:])
			if !ok {
				t.Fatalf("frame at %d of the replayed prefix does not decode", off)
			}
			again = encodeFrame(again, frame{key: key, value: value})
			off += n
		}
		if !bytes.Equal(again, data[:end]) {
			t.Fatal("replayed frames do not re-encode to their bytes")
		}
	})
}

func TestJournalRecordsMustBeCallRecords(t *testing.T) {
	cases := []struct {
		name  string
		key   string
		value string
	}{
		{"not JSON", "c1", "{"},
		{"another call's record", "c1", `{"call_id":"c2"}`},
		{"a result and a hand-over", "c1", `{"call_id":"c1","tool":"a.get","token":"t","payload_digest":"d","revision":"r","endpoint":"http://h","admitted_at":"2026-01-02T03:04:05Z",` +
			`"result":{"call_id":"c1","tool":"a.get","token":"t","completed_at":"2026-01-02T03:04:05Z"},"handed_over":3}`},
		{"an unknown field", "c1", `{"call_id":"c1","handed_over":3,"handed":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data := encodeFrame(nil, frame{key: tc.key, value: []byte(tc.value)})
			if err := os.WriteFile(filepath.Join(dir, callsJournal), data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := openDisk(dir)
			if err == nil || !strings.Contains(err.Error(), "is not its call record") {
				t.Fatalf("openDisk = %v, want an error naming the record", err)
			}
		})
	}
}

// TestJournalFileMode: the journal holds registration tokens and call
// results, so it is its owner's alone (0600), as the toolset files are:
// when created, when compacted into a new file, and when an existing file
// allowed more.
func TestJournalFileMode(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, path string)
		compact bool
	}{
		{name: "created"},
		{name: "compacted", compact: true},
		{name: "existing 0644", prepare: func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), callsJournal)
			if tc.prepare != nil {
				tc.prepare(t, path)
			}
			j, _, err := openJournal(path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.compact {
				j.compactMin = 1024
			}
			for i := range 100 {
				if err := j.commit(frame{key: fmt.Sprint(i % 2), value: bytes.Repeat([]byte("x"), 100)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := j.close(); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.compact && info.Size() > 2048 {
				t.Fatalf("journal of %d bytes was not compacted", info.Size())
			}
			if perm := info.Mode().Perm(); perm != 0o600 {
				t.Errorf("journal mode %v, want 0600", perm)
			}
		})
	}
}
