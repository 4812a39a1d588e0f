package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.jsonl")
	if err := os.WriteFile(tools, []byte(`{"name":"get_weather","description":"Current weather.","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}
{"name":"create_issue","title":"Create issue","description":"Open an issue."}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		tools int    // tools written, when no error
		err   string // part of the error
	}{
		{"distinct", []string{"-n", "5", tools}, 5, ""},
		{"repeated", []string{"-kind", "repeated", "-n", "4", tools}, 4, ""},
		{"shuffled", []string{"-kind", "shuffled", "-n", "7", tools}, 7, ""},
		{"pooled", []string{"-kind", "pooled", "-n", "7", tools}, 7, ""},
		{"unknown kind", []string{"-kind", "mixed", tools}, 0, `unknown -kind "mixed"`},
		{"no tools", []string{"-n", "0", tools}, 0, "-n 0"},
		{"no file", []string{"-n", "3"}, 0, "usage"},
		{"missing file", []string{filepath.Join(dir, "none.jsonl")}, 0, "no such file"},
		{"empty catalog", []string{empty}, 0, "no tools"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(c.args, &out)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			docs, err := catalogfile.ReadTools(&out)
			if err != nil {
				t.Fatalf("output unreadable: %v", err)
			}
			if len(docs) != c.tools {
				t.Errorf("%d tools, want %d", len(docs), c.tools)
			}
			if docs[1].Title != "Create issue" || !strings.Contains(string(docs[0].Parameters), "city") {
				t.Errorf("title or parameters lost: %+v", docs[:2])
			}
		})
	}
}
