package codegen

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// generated is the content of a generated file.
const generated = Header + "\n\npackage x\n"

func TestWriteOutputs(t *testing.T) {
	cases := []struct {
		name string
		// before are the files present before the run, by relative path;
		// a value of "->" makes a symbolic link to a file outside.
		before map[string]string
		// files are the files the run generates.
		files   map[string]string
		wantErr error
		// after are the files expected after the run.
		after map[string]string
	}{
		{
			name:  "new files",
			files: map[string]string{"toolsets/a/toolset.go": generated},
			after: map[string]string{"toolsets/a/toolset.go": generated},
		},
		{
			name:   "replaces a generated file",
			before: map[string]string{"toolsets/a/toolset.go": Header + "\n\npackage old\n"},
			files:  map[string]string{"toolsets/a/toolset.go": generated},
			after:  map[string]string{"toolsets/a/toolset.go": generated},
		},
		{
			name:    "refuses a file it did not generate, writing nothing",
			before:  map[string]string{"toolsets/a/toolset.go": "package mine\n"},
			files:   map[string]string{"toolsets/a/aaa.go": generated, "toolsets/a/toolset.go": generated},
			wantErr: ErrNotGenerated,
			after:   map[string]string{"toolsets/a/toolset.go": "package mine\n"},
		},
		{
			name:    "refuses a header that is not the first line",
			before:  map[string]string{"toolsets/a/toolset.go": "// Copyright\n" + generated},
			files:   map[string]string{"toolsets/a/toolset.go": generated},
			wantErr: ErrNotGenerated,
			after:   map[string]string{"toolsets/a/toolset.go": "// Copyright\n" + generated},
		},
		{
			name:    "refuses a symbolic link",
			before:  map[string]string{"toolsets/a/toolset.go": "->"},
			files:   map[string]string{"toolsets/a/toolset.go": generated},
			wantErr: ErrNotGenerated,
		},
		{
			name: "removes stale generated files and keeps the others",
			before: map[string]string{
				"toolsets/old/toolset.go":     generated,
				"mcpgateways/old/gateway.go":  generated,
				"mcpservers/oldmcp/server.go": generated,
				"toolsets/a/extra.go":         "package a\n",
				"toolsets/a/notes.txt":        "notes",
				"main.go":                     generated,
			},
			files: map[string]string{"toolsets/a/toolset.go": generated},
			after: map[string]string{
				"toolsets/a/toolset.go": generated,
				"toolsets/a/extra.go":   "package a\n",
				"toolsets/a/notes.txt":  "notes",
				"main.go":               generated,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outside := filepath.Join(t.TempDir(), "outside.go")
			if err := os.WriteFile(outside, []byte(generated), 0o644); err != nil {
				t.Fatal(err)
			}
			for rel, content := range tc.before {
				path := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				var err error
				if content == "->" {
					err = os.Symlink(outside, path)
				} else {
					err = os.WriteFile(path, []byte(content), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			var files []output
			for rel, content := range tc.files {
				files = append(files, output{path: rel, content: []byte(content)})
			}
			written, err := writeOutputs(dir, files)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("writeOutputs error = %v, want %v", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			} else {
				var generatedFiles int
				for _, w := range written {
					if w.Change != Removed {
						generatedFiles++
					}
				}
				if generatedFiles != len(tc.files) {
					t.Errorf("wrote %v, want %d files", written, len(tc.files))
				}
			}
			if tc.after == nil {
				return
			}
			got := map[string]string{}
			err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(dir, path)
				b, err := os.ReadFile(path)
				got[filepath.ToSlash(rel)] = string(b)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.after) {
				t.Errorf("files after the run: %v, want %v", keys(got), keys(tc.after))
			}
			for rel, want := range tc.after {
				if got[rel] != want {
					t.Errorf("%s = %q, want %q", rel, got[rel], want)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "toolsets", "old")); err == nil {
				t.Error("the directory of a stale package is left behind")
			}
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
