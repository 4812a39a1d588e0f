package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// UpdateEnv names the environment variable that makes the tests rewrite
// their golden files instead of comparing with them: 1 rewrites, unset or
// empty compares, any other value fails the test that reads it.
//
//	GOA_DISCOVERY_UPDATE=1 go test ./...
//
// An environment variable rather than a flag: go test passes a flag to every
// test binary of the pattern, and each would have to define it.
const UpdateEnv = "GOA_DISCOVERY_UPDATE"

// Update reports whether the tests run with GOA_DISCOVERY_UPDATE=1,
// rewriting golden files instead of comparing with them; it fails t on any
// other non-empty value.
func Update(t testing.TB) bool {
	t.Helper()
	switch v := os.Getenv(UpdateEnv); v {
	case "":
		return false
	case "1":
		return true
	default:
		t.Fatalf("%s=%q: want 1 (rewrite the golden files) or unset", UpdateEnv, v)
		return false
	}
}

// File compares got with the file at path; with GOA_DISCOVERY_UPDATE=1 it writes got there
// instead, creating the directory.
func File(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update(t) {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with %s=1 to create it)", err, UpdateEnv)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// JSON is [File] for a JSON document, kept indented with two spaces and a
// final newline: the file differs from body in white space only, so keys,
// their order and values are compared as body has them.
func JSON(t testing.TB, path string, body []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", path, err, body)
	}
	buf.WriteByte('\n')
	File(t, path, buf.Bytes())
}

// Tree compares the files of got, keyed by slash-separated paths relative to
// dir, with the files under dir: the same names and the same contents. With
// GOA_DISCOVERY_UPDATE=1 it replaces the contents of dir with got instead.
func Tree(t testing.TB, dir string, got map[string][]byte) {
	t.Helper()
	if Update(t) {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for name, content := range got {
			write(t, filepath.Join(dir, filepath.FromSlash(name)), content)
		}
		return
	}
	want := ReadTree(t, dir)
	if diff := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got))); diff != "" {
		t.Fatalf("files differ from %s (-want +got):\n%s\nrun the test with %s=1 to refresh them", dir, diff, UpdateEnv)
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if diff := cmp.Diff(string(want[name]), string(got[name])); diff != "" {
			t.Errorf("%s differs (-want +got):\n%s", filepath.Join(dir, filepath.FromSlash(name)), diff)
		}
	}
}

// ReadTree reads every file under dir, keyed by its slash-separated path
// relative to dir; a directory that does not exist has no files.
func ReadTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = content
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return files
}

// write writes content to path, creating its directory.
func write(t testing.TB, path string, content []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
}
