package codegen_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/testdata/designs/localtoolset"
)

func TestGenerate(t *testing.T) {
	cases := []struct {
		name       string
		outDir     string
		importPath string
		wantErr    bool
	}{
		{"output directory", t.TempDir(), "example.com/app/gen", false},
		{"empty output directory", "", "example.com/app/gen", true},
		{"empty import path", t.TempDir(), "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := designtest.Run(t, localtoolset.Design); err != nil {
				t.Fatalf("design: %v", err)
			}
			files, err := codegen.Generate(tc.outDir, tc.importPath)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Generate(%q, %q) error = %v, want error %v", tc.outDir, tc.importPath, err, tc.wantErr)
			}
			if !tc.wantErr && len(files) == 0 {
				t.Fatal("Generate wrote no file")
			}
		})
	}
}

func TestGenerateRefusesFailedEvaluation(t *testing.T) {
	if _, err := designtest.Run(t, localtoolset.Design); err != nil {
		t.Fatalf("design: %v", err)
	}
	eval.Context.Errors = eval.MultiError{{GoError: errors.New("bad design")}}
	t.Cleanup(func() { eval.Context.Errors = nil })
	_, err := codegen.Generate(t.TempDir(), "example.com/app/gen")
	if !errors.Is(err, codegen.ErrNotEvaluated) {
		t.Fatalf("Generate after a failed evaluation = %v, want ErrNotEvaluated", err)
	}
}

// TestGenerateReportsChanges checks what Generate reports on a first run, a
// run that changes nothing, a run after a file was edited and a run that
// removes a stale file.
func TestGenerateReportsChanges(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "toolsets", "gone", "gone.go")
	var edited string
	runs := []struct {
		name    string
		prepare func(t *testing.T, files []codegen.File)
		want    func(f codegen.File) codegen.Change
	}{
		{"first run", nil, func(codegen.File) codegen.Change { return codegen.Written }},
		{"unchanged", nil, func(codegen.File) codegen.Change { return codegen.Unchanged }},
		{"one file edited", func(t *testing.T, files []codegen.File) {
			edited = files[0].Path
			if err := os.WriteFile(edited, []byte(codegen.Header+"\n\npackage edited\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, func(f codegen.File) codegen.Change {
			if f.Path == edited {
				return codegen.Written
			}
			return codegen.Unchanged
		}},
		{"stale file", func(t *testing.T, _ []codegen.File) {
			if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(stale, []byte(codegen.Header+"\n\npackage gone\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, func(f codegen.File) codegen.Change {
			if f.Path == stale {
				return codegen.Removed
			}
			return codegen.Unchanged
		}},
	}
	var last []codegen.File
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			if r.prepare != nil {
				r.prepare(t, last)
			}
			if _, err := designtest.Run(t, localtoolset.Design); err != nil {
				t.Fatalf("design: %v", err)
			}
			files, err := codegen.Generate(dir, "example.com/app/gen")
			if err != nil {
				t.Fatal(err)
			}
			if len(files) == 0 {
				t.Fatal("Generate reported no file")
			}
			for _, f := range files {
				if got, want := f.Change, r.want(f); got != want {
					t.Errorf("%s: %v, want %v", f.Path, got, want)
				}
			}
			last = files
		})
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale file still there: %v", err)
	}
}

func TestReport(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	files := []codegen.File{
		{Path: filepath.Join(wd, "gen", "a.go"), Change: codegen.Written},
		{Path: filepath.Join(wd, "gen", "b.go"), Change: codegen.Unchanged},
		{Path: filepath.Join(wd, "gen", "c.go"), Change: codegen.Removed},
	}
	cases := []struct {
		name    string
		verbose bool
		want    string
	}{
		{"changes only", false, "gen/a.go\nremoved gen/c.go\n"},
		{"verbose", true, "gen/a.go\ngen/b.go (unchanged)\nremoved gen/c.go\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := codegen.Report(&buf, files, tc.verbose); err != nil {
				t.Fatal(err)
			}
			if got := filepath.ToSlash(buf.String()); got != tc.want {
				t.Errorf("Report wrote\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
