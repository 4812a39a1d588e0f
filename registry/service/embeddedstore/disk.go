package embeddedstore

// The embedded store's persistence. The data directory holds:
//
//	generation                   {"generation": N}, padded to a fixed size
//	toolsets/<hash of name>.json  one storedToolset per registered toolset
//	calls.journal                 the admitted calls: a journal (journal.go)
//	                              keyed by call ID, each value a journalCall
//
// A toolset file is written whole to a temporary file in its directory,
// synced, renamed over its name and the directory synced, so a reader after
// a crash sees the old file or the new one, never a mix. The generation is
// overwritten in place (one write of a few bytes at the start of its file,
// then a sync): that needs no new space, so that a withdrawal, which writes
// the generation and then removes a file, works on a full disk. File names
// hash the names they stand for, so that names differing only in case do
// not collide on case-insensitive file systems.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

const (
	generationFile = "generation"
	toolsetsDir    = "toolsets"
	callsJournal   = "calls.journal"
	tempPrefix     = ".tmp-"
	// generationSize is the fixed size of the generation file: the longest
	// generation document, padded with spaces.
	generationSize = 48
)

// disk persists the embedded store in a directory.
type disk struct {
	dir   string
	gen   *os.File // nil until the first generation is written
	calls *journal
}

// snapshot is what a data directory holds.
type snapshot struct {
	generation uint64
	toolsets   []storedToolset
	calls      []journalCall
}

// journalCall is how the journal persists a call: its record, and the
// hand-over outstanding (embedded_attempts.go).
type journalCall struct {
	store.CallRecord
	// HandedOver is the fence of the claim the call was handed to its
	// provider under, while no result is recorded and the provider did
	// not answer with a failure; 0 when no hand-over is outstanding.
	HandedOver uint64 `json:"handed_over,omitempty"`
}

// storedToolset is how the store persists a registration.
type storedToolset struct {
	Registration registry.Registration `json:"registration"`
}

type generationDoc struct {
	Generation uint64 `json:"generation"`
}

// openDisk creates the directory layout when missing, removes temporary
// files a crash left behind and reads everything persisted. A file that
// cannot be read or decoded is an error: nothing is skipped. When the
// journal cannot be created for want of space the error wraps
// ErrStorageFull and the disk is returned with its snapshot, to be served
// read-only.
func openDisk(dir string) (*disk, *snapshot, error) {
	d := &disk{dir: dir}
	if err := os.MkdirAll(filepath.Join(dir, toolsetsDir), 0o755); err != nil {
		return nil, nil, storageError("create data directory", err)
	}
	// Make the layout's directory entries durable, should they be new.
	if err := syncDir(dir); err != nil {
		return nil, nil, err
	}
	snap := &snapshot{}
	var gen generationDoc
	switch err := readJSON(filepath.Join(dir, generationFile), &gen); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, nil, err
	default:
		snap.generation = gen.Generation
		f, err := os.OpenFile(filepath.Join(dir, generationFile), os.O_RDWR, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("registry store: %w", err)
		}
		d.gen = f
	}
	err := d.each(toolsetsDir, func(path string) error {
		var st storedToolset
		if err := readJSON(path, &st); err != nil {
			return err
		}
		if want := d.toolsetPath(st.Registration.Toolset.Name); want != path {
			return fmt.Errorf("registry store: %s holds toolset %q, which belongs in %s", path, st.Registration.Toolset.Name, want)
		}
		snap.toolsets = append(snap.toolsets, st)
		return nil
	})
	if err == nil {
		err = removeTemps(dir)
	}
	var values map[string][]byte
	var full error // no journal could be created, for want of space
	if err == nil {
		d.calls, values, err = openJournal(filepath.Join(dir, callsJournal))
		if errors.Is(err, store.ErrStorageFull) {
			full, err = err, nil
		}
	}
	if err == nil {
		err = readCalls(snap, values)
	}
	if err != nil {
		d.close()
		return nil, nil, err
	}
	return d, snap, full // full: to be served read-only, which writes nothing
}

// readCalls adds the calls of the journal's values to snap.
func readCalls(snap *snapshot, values map[string][]byte) error {
	for id, v := range values {
		var rec journalCall
		if err := strictjson.Decode(v, &rec); err != nil || rec.CallID != id {
			return fmt.Errorf("registry store: journal record of call %q is not its call record (%v)", id, err)
		}
		if rec.HandedOver != 0 && rec.Result != nil {
			return fmt.Errorf("registry store: journal record of call %q is not its call record (it has both a result and a hand-over)", id)
		}
		snap.calls = append(snap.calls, rec)
	}
	return nil
}

func (d *disk) close() {
	if d.gen != nil {
		_ = d.gen.Close()
	}
	if d.calls != nil {
		_ = d.calls.close()
	}
}

// each calls fn with the path of every JSON file in the subdirectory.
func (d *disk) each(sub string, fn func(path string) error) error {
	entries, err := os.ReadDir(filepath.Join(d.dir, sub))
	if err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			continue
		}
		if e.IsDir() || !strings.HasSuffix(name, ".json") {
			return fmt.Errorf("registry store: unexpected entry %s in %s", name, filepath.Join(d.dir, sub))
		}
		if err := fn(filepath.Join(d.dir, sub, name)); err != nil {
			return err
		}
	}
	return nil
}

func removeTemps(dir string) error {
	for _, sub := range []string{".", toolsetsDir} {
		matches, err := filepath.Glob(filepath.Join(dir, sub, tempPrefix+"*"))
		if err != nil {
			return fmt.Errorf("registry store: %w", err)
		}
		for _, m := range matches {
			if err := os.Remove(m); err != nil {
				return fmt.Errorf("registry store: remove leftover %s: %w", m, err)
			}
		}
	}
	return nil
}

func (d *disk) toolsetPath(name string) string {
	return filepath.Join(d.dir, toolsetsDir, hashName(name)+".json")
}

func hashName(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// putGeneration overwrites the generation in place: one write of the
// fixed-size document at the start of its file, then a sync, which needs no
// new space, so that a withdrawal works on a full disk. The first one
// creates the file atomically, so that a failure for want of space leaves
// no empty generation file behind.
func (d *disk) putGeneration(gen uint64) error {
	doc, err := json.Marshal(generationDoc{Generation: gen})
	if err != nil {
		return fmt.Errorf("registry store: encode generation: %w", err)
	}
	buf := []byte(strings.Repeat(" ", generationSize))
	copy(buf, doc)
	buf[generationSize-1] = '\n'
	path := filepath.Join(d.dir, generationFile)
	if d.gen == nil {
		if err := writeFileAtomic(path, buf); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("registry store: %w", err)
		}
		d.gen = f
		return nil
	}
	if _, err := d.gen.WriteAt(buf, 0); err != nil {
		return storageError("write generation", err)
	}
	if err := d.gen.Sync(); err != nil {
		return storageError("sync generation", err)
	}
	return nil
}

func (d *disk) putToolset(st *storedToolset) error {
	return writeJSONAtomic(d.toolsetPath(st.Registration.Toolset.Name), st)
}

// deleteToolset removes a toolset's file, which frees space and needs none.
func (d *disk) deleteToolset(name string) error {
	path := d.toolsetPath(name)
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// putCall makes the record of a call, with the fence of its outstanding
// hand-over (0: none), durable in the journal: one frame, so that an
// admission and its hand-over share one sync.
func (d *disk) putCall(rec *store.CallRecord, handedOver uint64) error {
	v, err := json.Marshal(&journalCall{CallRecord: *rec, HandedOver: handedOver})
	if err != nil {
		return fmt.Errorf("registry store: encode call %q: %w", rec.CallID, err)
	}
	return d.calls.commit(frame{key: rec.CallID, value: v})
}

// forgetCalls removes the records from the journal, in batches, and
// returns how many of ids (a prefix) it removed.
func (d *disk) forgetCalls(ids []string) (int, error) {
	const perBatch = 10000
	done := 0
	for done < len(ids) {
		n := min(len(ids)-done, perBatch)
		frames := make([]frame, n)
		for i := range n {
			frames[i] = frame{key: ids[done+i]}
		}
		if err := d.calls.commit(frames...); err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

// storageError wraps err, with ErrStorageFull when the disk (or the
// quota) is full.
func storageError(op string, err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("%w: %s: %w", store.ErrStorageFull, op, err)
	}
	return fmt.Errorf("registry store: %s: %w", op, err)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	if err := strictjson.Decode(data, v); err != nil {
		return fmt.Errorf("registry store: %s: %w", path, err)
	}
	return nil
}

// writeJSONAtomic replaces path with the JSON encoding of v; see the file
// comment.
func writeJSONAtomic(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("registry store: encode %s: %w", path, err)
	}
	return writeFileAtomic(path, data)
}

// writeFileAtomic replaces path with data: it writes a temporary file in
// path's directory, syncs it, renames it over path and syncs the
// directory, so that a reader after a crash sees the old file or the new
// one, never a mix.
func writeFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return storageError("create temporary file", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return storageError("write "+path, err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return storageError("sync "+path, err)
	}
	if err := f.Close(); err != nil {
		return storageError("close "+path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("registry store: sync %s: %w", dir, err)
	}
	return nil
}
