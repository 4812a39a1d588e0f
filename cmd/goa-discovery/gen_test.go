package main

import (
	"bytes"
	"context"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

const designsPath = "github.com/goa-discovery/goa-discovery/testdata/designs/"

// moduleRoot is the module root relative to this package directory.
const moduleRoot = "../.."

func TestGenDesigns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	badFile, err := filepath.Abs(filepath.Join(moduleRoot, "testdata/designs/bad/design.go"))
	if err != nil {
		t.Fatal(err)
	}
	typoFile := filepath.Join(moduleRoot, "testdata/designs/typo/design.go") // relative to the working directory
	typoAt := typoFile + ":" + strconv.Itoa(designtest.MarkerLine(t, typoFile, "compile-error")) + ":"
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantErrs []struct{ msg, marker string }
		// wantStderr is a line that stderr must hold.
		wantStderr string
		kept       bool
	}{
		{name: "valid design", args: []string{designsPath + "good"}},
		{name: "invalid design reports every error", args: []string{designsPath + "bad"}, wantCode: 1,
			wantErrs: []struct{ msg, marker string }{
				{`tool "lookup" of toolset "records": Args must be an object`, "args-string"},
				{`toolset "records": Deferred must appear in a Use`, "toolset-deferred"},
				{`tool "search" of toolset "tool": the model knows this tool as "tool_search", a name reserved for tool discovery`, "reserved"},
				{`registry "company": URL "registry.example" must be absolute`, "url"},
				{`toolset "billing": invalid semantic version: "1.2"`, "version"},
				{`unknown tool "serch_products" in Deferred("serch_products"): toolset "records" has no tool "serch_products"; did you mean "search_products"?`, "typo"},
				{`named selection Deferred("invoice") is not allowed on registry toolset "billing"`, "registry-named"},
				{`Use of registry "company" as a whole overlaps the Use of its toolset "billing"`, "overlap"},
				{`tool "products" of toolset "records_search" and tool "search_products" of toolset "records" (used at`, "collision"},
				{`agents use each other's exported tools in a cycle`, "cycle"},
				{`tool "specs" of toolset "tickets": Go identifier Specs of the tool is already used by the toolset package itself`, "package-ident"},
				{`tool "search" of toolset "tickets": Args attribute "limit": default 200 does not satisfy the attribute's own schema: maximum: got 200, want 100`, "generated-args"},
				{`tool "search" of toolset "tickets": Args attribute "set_defaults": its Go field SetDefaults would hide the method SearchArgs.SetDefaults`, "generated-args"},
			}},
		{name: "debug keeps the generator program", args: []string{"--debug", designsPath + "good"}, kept: true},
		{name: "compile errors are relative to the working directory", args: []string{designsPath + "typo"}, wantCode: 1,
			wantStderr: typoAt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := moduleFiles(t)
			var stdout, stderr bytes.Buffer
			out := outputModule(t)
			args := append([]string{"-o", out}, tc.args...)
			code := runGen(args, &stdout, &stderr)
			if code != tc.wantCode {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, tc.wantCode, stderr.String())
			}
			if tc.wantErrs != nil {
				checkDesignErrors(t, stderr.String(), badFile, tc.wantErrs)
			}
			if tc.wantStderr != "" && !strings.Contains("\n"+stderr.String(), "\n"+tc.wantStderr) {
				t.Errorf("no stderr line starts with %q:\n%s", tc.wantStderr, stderr.String())
			}
			checkGenerated(t, out, stdout.String(), tc.wantCode == 0)
			kept := generatorDirs(t)
			if tc.kept {
				if len(kept) != 1 || !strings.Contains(stderr.String(), "kept generator program in "+relativeToWorkdir(kept[0])+"\n") {
					t.Fatalf("--debug kept %v, stderr:\n%s", kept, stderr.String())
				}
				if _, err := os.Stat(filepath.Join(kept[0], "main.go")); err != nil {
					t.Errorf("kept generator has no main.go: %v", err)
				}
				if err := os.RemoveAll(kept[0]); err != nil {
					t.Fatal(err)
				}
			} else if len(kept) != 0 {
				t.Errorf("generator directories left behind: %v", kept)
			}
			if after := moduleFiles(t); !bytes.Equal(before, after) {
				t.Error("go.mod or go.sum changed")
			}
		})
	}
}

// outputModule returns an empty module directory to generate into.
func outputModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/out\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "gen")
}

// checkGenerated checks that stdout lists generated files, each inside out,
// when the run succeeded, and none otherwise.
func checkGenerated(t *testing.T, out, stdout string, succeeded bool) {
	t.Helper()
	files := strings.Fields(stdout)
	if !succeeded {
		if len(files) != 0 {
			t.Errorf("a failed run listed files:\n%s", stdout)
		}
		return
	}
	if len(files) == 0 {
		t.Fatal("stdout lists no generated file")
	}
	for _, f := range files {
		if filepath.IsAbs(f) {
			t.Errorf("listed file %s is not relative to the working directory", f)
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(out, abs)
		if err != nil || !filepath.IsLocal(rel) {
			t.Errorf("generated file %s is not inside %s", f, out)
			continue
		}
		if _, err := os.Stat(abs); err != nil {
			t.Errorf("listed file: %v", err)
		}
	}
}

// checkDesignErrors checks that stderr holds exactly the wanted errors, each
// located at its marker line of the design file.
func checkDesignErrors(t *testing.T, stderr, designFile string, want []struct{ msg, marker string }) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, designFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != len(want) {
		t.Errorf("got %d error lines, want %d:\n%s", len(lines), len(want), stderr)
	}
	for _, w := range want {
		loc := "[" + rel + ":" + strconv.Itoa(designtest.MarkerLine(t, designFile, w.marker)) + "] "
		found := false
		for _, line := range lines {
			if strings.Contains(line, w.msg) {
				found = true
				if !strings.HasPrefix(line, loc) {
					t.Errorf("error %q\n  is not located at %s", line, loc)
				}
			}
		}
		if !found {
			t.Errorf("no error contains %q in:\n%s", w.msg, stderr)
		}
	}
}

// moduleFiles returns the bytes of go.mod and go.sum.
func moduleFiles(t *testing.T) []byte {
	t.Helper()
	var all []byte
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(moduleRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), 0)
	}
	return all
}

// generatorDirs returns the absolute paths of generator directories in the
// module root.
func generatorDirs(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, tempDirPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestGenListsChanges checks that gen lists the files it wrote or removed,
// and with -v every generated file, relative to the working directory.
func TestGenListsChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	out := outputModule(t)
	stale := filepath.Join(out, "toolsets", "gone", "gone.go")
	runs := []struct {
		name    string
		args    []string
		prepare func(t *testing.T)
		// want says, for stdout, how many lines it has and which lines it
		// must hold.
		wantLines int
		want      []string
	}{
		{name: "first run lists every file", wantLines: -1},
		{name: "an unchanged design lists nothing", wantLines: 0},
		{name: "-v lists every file unchanged", args: []string{"-v"}, wantLines: -1, want: []string{"(unchanged)"}},
		{name: "a stale file is listed as removed", wantLines: 1,
			prepare: func(t *testing.T) {
				if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(stale, []byte(codegen.Header+"\n\npackage gone\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"removed " + relativeToWorkdir(stale)}},
	}
	var all int
	for i, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			if r.prepare != nil {
				r.prepare(t)
			}
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"-o", out}, r.args...), designsPath+"good")
			if code := runGen(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if stdout.Len() == 0 {
				lines = nil
			}
			if i == 0 {
				all = len(lines)
				if all == 0 {
					t.Fatal("the first run listed no file")
				}
			}
			want := r.wantLines
			if want < 0 {
				want = all
			}
			if len(lines) != want {
				t.Errorf("listed %d lines, want %d:\n%s", len(lines), want, stdout.String())
			}
			for _, w := range r.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout does not hold %q:\n%s", w, stdout.String())
				}
			}
			for _, l := range lines {
				if p := strings.TrimSuffix(strings.TrimPrefix(l, "removed "), " (unchanged)"); filepath.IsAbs(p) {
					t.Errorf("listed path %s is not relative to the working directory", p)
				}
			}
		})
	}
}

func TestGenUsage(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"no design", nil, 2},
		{"two designs", []string{"a", "b"}, 2},
		{"unknown flag", []string{"--nope", "a"}, 2},
		{"help", []string{"-h"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := runGen(tc.args, &stdout, &stderr); got != tc.want {
				t.Fatalf("exit code %d, want %d", got, tc.want)
			}
			if !strings.Contains(stderr.String(), "usage: goa-discovery gen") {
				t.Errorf("stderr has no usage:\n%s", stderr.String())
			}
		})
	}
}

func TestGenUnknownDesign(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := runGen([]string{"-o", outputModule(t), designsPath + "missing"}, &stdout, &stderr); got != 1 {
		t.Fatalf("exit code %d, want 1", got)
	}
	if !strings.Contains(stderr.String(), `load design package "`+designsPath+`missing"`) {
		t.Errorf("stderr does not name the design:\n%s", stderr.String())
	}
	if dirs := generatorDirs(t); len(dirs) != 0 {
		t.Errorf("generator directories left behind: %v", dirs)
	}
}

func TestGeneratorMain(t *testing.T) {
	src, err := generatorMain(designsPath + "good")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("generator program does not parse: %v\n%s", err, src)
	}
	imports := map[string]string{}
	for _, imp := range f.Imports {
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[strings.Trim(imp.Path.Value, `"`)] = name
	}
	if name := imports[designsPath+"good"]; name != "_" {
		t.Errorf("design import name %q, want a blank import", name)
	}
	for _, path := range []string{evalPkg, codegenPkg} {
		if _, ok := imports[path]; !ok {
			t.Errorf("generator program does not import %q", path)
		}
	}
}

func TestOutputImportPath(t *testing.T) {
	mod := outputModule(t) // <tmp>/gen in module example.com/out
	cases := []struct {
		name    string
		dir     string
		want    string
		wantErr string
	}{
		{"module root", filepath.Dir(mod), "example.com/out", ""},
		{"directory to create", mod, "example.com/out/gen", ""},
		{"nested directory", filepath.Join(mod, "a", "b"), "example.com/out/gen/a/b", ""},
		{"outside any module", filepath.Join(t.TempDir(), "gen"), "", "is not inside a Go module"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := outputImportPath(tc.dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("outputImportPath(%s) = %q, %v; want an error containing %q", tc.dir, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("outputImportPath(%s) = %q, %v; want %q", tc.dir, got, err, tc.want)
			}
		})
	}
}

func TestGenRefusesFilesItDidNotGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	out := outputModule(t)
	mine := filepath.Join(out, "toolsets", "records", "toolset.go")
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	const content = "package records // written by hand\n"
	if err := os.WriteFile(mine, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := runGen([]string{"-o", out, designsPath + "good"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit code %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "refusing to replace "+relativeToWorkdir(mine)+":") {
		t.Errorf("stderr does not name the refused file:\n%s", stderr.String())
	}
	got, err := os.ReadFile(mine)
	if err != nil || string(got) != content {
		t.Fatalf("hand-written file changed: %q, %v", got, err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("a refused run wrote into %s: %v", out, entries)
	}
}

// An interrupt (here a canceled context) during the build of the generator
// program stops it and still removes its directory.
func TestGenCanceledRemovesProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the generator program")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for ctx.Err() == nil {
			if len(generatorDirs(t)) > 0 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	var stdout, stderr bytes.Buffer
	err := gen(ctx, designsPath+"good", outputModule(t), genOptions{}, &stdout, &stderr)
	cancel()
	<-watched
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("gen with a canceled context = %v, want context.Canceled", err)
	}
	if dirs := generatorDirs(t); len(dirs) != 0 {
		t.Errorf("generator directories left behind: %v", dirs)
	}
}
