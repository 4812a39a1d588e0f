package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestMCPImportRefusesDeclaredNames: mcp import -o into a design package
// that already declares the toolset's variable is refused before anything
// is written, naming the identifier and where it is declared, instead of
// leaving a design that does not compile ("Records redeclared").
func TestMCPImportRefusesDeclaredNames(t *testing.T) {
	var changed atomic.Bool
	url := driftingServer(t, &changed)
	dir := filepath.Join(t.TempDir(), "design")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	existing := "package design\n\n// Records is declared by hand.\nvar Records = 1\n"
	if err := os.WriteFile(filepath.Join(dir, "design.go"), []byte(existing), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		stderr   string
		written  bool
		fileName string
	}{
		{"the toolset's variable is declared", []string{"--name", "records"}, 1, "records.go would declare Records, which " + filepath.Join(dir, "design.go") + ":4:5 already declares; nothing written", false, "records.go"},
		{"another toolset name", []string{"--name", "records", "--toolset", "archive"}, 0, "", true, "archive.go"},
		{"another package", []string{"--name", "records", "--package", "other"}, 0, "", true, "other.go"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.fileName)
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"import"}, tc.args...), "-o", out, "--url", url)
			if code := runMCP(args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr:\n%s\nwant %q", stderr.String(), tc.stderr)
			}
			if _, err := os.Stat(out); (err == nil) != tc.written {
				t.Errorf("%s written: %v, want %v", tc.fileName, err == nil, tc.written)
			}
			os.Remove(out)
		})
	}
}
