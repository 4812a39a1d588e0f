package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenFlagsAfterPath: gen takes its flags before or after the design
// path, as the go command does, and says what is wrong with its arguments.
func TestGenFlagsAfterPath(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gen")
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"flags after the path", []string{"./no-such-design", "-o", out, "-v"}, 1, `load design package "./no-such-design"`},
		{"flags before the path", []string{"-o", out, "./no-such-design"}, 1, `load design package "./no-such-design"`},
		{"two paths", []string{"./a", "-o", out, "./b"}, 2, "want one design import path, got 2"},
		{"no path", []string{"-o", out}, 2, "want one design import path, got 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runGen(tc.args, &stdout, &stderr); code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr:\n%s\nwant %q", stderr.String(), tc.stderr)
			}
		})
	}
}
