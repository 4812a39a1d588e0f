package service

// The embedded store's persistence. The data directory holds:
//
//	generation                   {"generation": N}, the registry's generation
//	toolsets/<hash of name>.json  one storedToolset per registered toolset
//	calls/<hash of call id>.json  one callRecord per admitted call
//
// Every file is written whole to a temporary file in its directory, synced,
// renamed over its name and the directory synced, so a reader after a crash
// sees the old file or the new one, never a mix. File names hash the names
// they stand for, so that names differing only in case do not collide on
// case-insensitive file systems.

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

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
)

const (
	generationFile = "generation"
	toolsetsDir    = "toolsets"
	callsDir       = "calls"
	tempPrefix     = ".tmp-"
)

// disk persists the store in a directory.
type disk struct {
	dir string
}

// snapshot is what a data directory holds.
type snapshot struct {
	generation uint64
	toolsets   []storedToolset
	calls      []callRecord
}

type generationDoc struct {
	Generation uint64 `json:"generation"`
}

// openDisk creates the directory layout when missing, removes temporary
// files a crash left behind and reads everything persisted. A file that
// cannot be read or decoded is an error: nothing is skipped.
func openDisk(dir string) (*disk, *snapshot, error) {
	d := &disk{dir: dir}
	for _, sub := range []string{toolsetsDir, callsDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, nil, fmt.Errorf("registry store: %w", err)
		}
	}
	snap := &snapshot{}
	var gen generationDoc
	switch err := readJSON(filepath.Join(dir, generationFile), &gen); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, nil, err
	default:
		snap.generation = gen.Generation
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
	if err != nil {
		return nil, nil, err
	}
	err = d.each(callsDir, func(path string) error {
		var rec callRecord
		if err := readJSON(path, &rec); err != nil {
			return err
		}
		if want := d.callPath(rec.CallID); want != path {
			return fmt.Errorf("registry store: %s holds call %q, which belongs in %s", path, rec.CallID, want)
		}
		snap.calls = append(snap.calls, rec)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if err := removeTemps(dir); err != nil {
		return nil, nil, err
	}
	return d, snap, nil
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
	for _, sub := range []string{".", toolsetsDir, callsDir} {
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

func (d *disk) callPath(id string) string {
	return filepath.Join(d.dir, callsDir, hashName(id)+".json")
}

func hashName(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

func (d *disk) putGeneration(gen uint64) error {
	return writeJSONAtomic(filepath.Join(d.dir, generationFile), generationDoc{Generation: gen})
}

func (d *disk) putToolset(st *storedToolset) error {
	return writeJSONAtomic(d.toolsetPath(st.Registration.Toolset.Name), st)
}

func (d *disk) deleteToolset(name string) error {
	path := d.toolsetPath(name)
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

func (d *disk) deleteCall(id string) error {
	path := d.callPath(id)
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

func (d *disk) putCall(rec *callRecord) error {
	return writeJSONAtomic(d.callPath(rec.CallID), rec)
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
func writeJSONAtomic(path string, v any) (err error) {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("registry store: encode %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("registry store: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return fmt.Errorf("registry store: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("registry store: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("registry store: close %s: %w", path, err)
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
